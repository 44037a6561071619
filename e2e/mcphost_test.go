package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/internal/fakeprovider"
	"github.com/reversa/moot/internal/testutil"
)

// Claude Code (the real CLI scripts/install-clis installs), configured
// with `moot mcp` as an MCP server and driven by the fake provider into
// calling moot's run tool, runs a debate: the bug's folder holds its final
// answer and the CLI's own output carries the tool's result. Skipped when
// the CLI is not installed (a failure on CI).
func TestMCPClaudeCodeRunsADebateThroughMoot(t *testing.T) {
	t.Parallel()
	bin := testutil.NeedCLIs(t, "claude")
	p := newProject(t)
	srv := fakeprovider.New()
	defer srv.Close()
	srv.SetMode(fakeprovider.CallTool)
	srv.CallToolName = "moot__run"
	srv.CallToolArgs = map[string]any{"bug": "7", "mode": "diagnosis", "n": 2, "r": 0, "accept_plan": true}
	home := t.TempDir()
	env := map[string]string{"FAKE_LOG": p.log, "XDG_CONFIG_HOME": filepath.Join(p.dir, ".xdg"), "XDG_CACHE_HOME": filepath.Join(p.dir, ".cache"), "PATH": os.Getenv("PATH")}
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"moot": map[string]any{
		"command": mootBin, "args": []string{"mcp", "--dir", p.dir}, "env": env}}})
	cfgFile := filepath.Join(home, "mcp.json")
	if err := os.WriteFile(cfgFile, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, filepath.Join(bin, "claude"), "-p", "Run a moot debate on bug 7 in diagnosis mode.",
		"--output-format", "text", "--bare", "--mcp-config", cfgFile, "--strict-mcp-config",
		"--allowedTools", "mcp__moot__run", "--model", "fake-model", "--no-session-persistence")
	c.Dir = p.dir
	c.Env = append(os.Environ(), "HOME="+home, "CLAUDE_CONFIG_DIR="+filepath.Join(home, ".claude"),
		"ANTHROPIC_BASE_URL="+srv.URL, "ANTHROPIC_API_KEY=sk-fake-for-tests", "DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
	out, err := c.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("claude did not finish: %s", out)
	}
	if err != nil {
		t.Fatalf("claude: %v\n%s", err, out)
	}
	if srv.Attacks() != 1 {
		t.Errorf("the fake model called the tool %d times, want once", srv.Attacks())
	}
	// claude hands the model the tool's structured result
	if !strings.Contains(string(out), `moot answered: {"calls":3,"folder":"`+p.debate()+`","outcome":"done"`) {
		t.Errorf("claude's output does not carry moot's result:\n%s", out)
	}
	final, err := os.ReadFile(filepath.Join(p.debate(), "resposta-final.md"))
	if err != nil || !strings.Contains(string(final), "decided_by") {
		t.Errorf("the bug's folder has no final answer: %v\n%s", err, final)
	}
}
