package harness

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/internal/fakeprovider"
)

func TestSplitSharedCutsThePromptAfterItsSharedBlock(t *testing.T) {
	cases := []struct {
		name        string
		pieces      []string
		prefix      int
		shared, own []string
		ok          bool
	}{
		{"no shared block", []string{"abc"}, 0, nil, nil, false},
		{"inside a piece", []string{"title\n", "P", "\nend\nown"}, 11, []string{"title\n", "P", "\nend"}, []string{"\nown"}, true},
		{"at a piece's end", []string{"ab", "cd", "ef"}, 4, []string{"ab", "cd"}, []string{"ef"}, true},
		{"nothing after it", []string{"ab", "cd"}, 4, nil, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			shared, own, ok := splitShared(Request{PromptParts: c.pieces, CachePrefix: c.prefix})
			if ok != c.ok || !slices.Equal(shared, c.shared) || !slices.Equal(own, c.own) {
				t.Errorf("got %q %q %v, want %q %q %v", shared, own, ok, c.shared, c.own, c.ok)
			}
		})
	}
}

func TestSubstitutesFindsAPlaceholderAcrossPieces(t *testing.T) {
	for _, c := range []struct {
		pieces []string
		want   bool
	}{
		{[]string{"plain text $ and {braces}"}, false},
		{[]string{"a ${AvailableTools} b"}, true},
		{[]string{"cost $", "{x}"}, true},
		{[]string{"cost $", "", "{x}"}, true},
	} {
		if got := substitutes(c.pieces); got != c.want {
			t.Errorf("substitutes(%q) = %v, want %v", c.pieces, got, c.want)
		}
	}
}

// TestGeminiRequestsBeginWithTheSharedBlock: two gemini calls on the real
// CLI, each in its own private folder, whose prompts share a block of 8k
// tokens: the block is the requests' system prompt, byte for byte the same
// in both (the session context naming each call's folder comes after
// it), so a provider's implicit cache serves it to the second call; the
// model still sees the whole prompt, and the CLI stays read-only.
func TestGeminiRequestsBeginWithTheSharedBlock(t *testing.T) {
	needCLI(t, KindGemini)
	t.Parallel()
	srv := fakeprovider.New()
	defer srv.Close()
	srv.Cache = true
	shared := "The problem (P):\n" + strings.Repeat("the order total is recalculated twice after a discount\n", 600) +
		"\n----- end of the shared part -----\n\n"
	var reads []int
	for i, own := range []string{cliPrompt, strings.Replace(cliPrompt, "agente-1", "agente-2", 1)} {
		run := &cliRun{marker: "moot-test-shared-" + string(rune('a'+i))}
		a, err := New(cliEntry(KindGemini, srv, run.marker), Options{Grace: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		run.res, run.took = callInSlot(a, Request{Role: "solver", SolverID: "agente-1", PromptParts: []string{shared, own},
			CachePrefix: len(shared), P: "# P\n", Timeout: 2 * time.Minute, Stdout: &run.out, Stderr: &run.err})
		if statusOf(run.res) != "ok" {
			t.Fatalf("status %s (%s)\nstderr: %.2000s", statusOf(run.res), run.res.Err, run.err.String())
		}
		run.checkClean(t)
		reads = append(reads, run.res.CacheRead)
	}
	var systems []string
	for _, r := range srv.Requests() {
		if r.Method != "POST" {
			continue
		}
		si, _ := r.Body["systemInstruction"].(map[string]any)
		parts, _ := si["parts"].([]any)
		if len(parts) == 1 {
			text, _ := parts[0].(map[string]any)["text"].(string)
			systems = append(systems, text)
		}
		if !strings.HasPrefix(r.Prompt, shared) || !strings.Contains(r.Prompt, "Você é agente-") {
			t.Errorf("the model did not receive the whole prompt: %.200q", r.Prompt)
		}
	}
	if len(systems) != 2 || systems[0] != systems[1] || systems[0] != strings.TrimSpace(shared) {
		t.Fatalf("the requests' system prompts are not the shared block, the same in both: %d, %.120q", len(systems), systems)
	}
	if reads[0] != 0 || reads[1] < 8000 {
		t.Errorf("cache reads %v, want none on the first call and the shared block's 8k tokens on the second", reads)
	}
}

// TestGeminiKeepsAPlaceholderBlockOnStdin: a shared block holding "${"
// (which the CLI would replace in a system prompt file) is sent as before,
// on stdin under the CLI's own system prompt.
func TestGeminiKeepsAPlaceholderBlockOnStdin(t *testing.T) {
	c := &callSetup{dirs: callDirs{root: t.TempDir()}}
	req := Request{PromptParts: []string{"P with ${AvailableTools}\n", "own"}, CachePrefix: 26}
	stdin, err := c.sharedAsSystemPrompt(req)
	if err != nil || !slices.Equal(stdin, req.PromptParts) || c.hasEnv(geminiSystemVar) {
		t.Errorf("stdin %q, err %v, env %q: want the whole prompt on stdin and no system prompt file", stdin, err, c.env)
	}
	req.PromptParts[0] = "P as written\n"
	req.CachePrefix = len(req.PromptParts[0])
	stdin, err = c.sharedAsSystemPrompt(req)
	if err != nil || !slices.Equal(stdin, []string{"own"}) || !c.hasEnv(geminiSystemVar) {
		t.Fatalf("stdin %q, err %v, env %q: want the call's own part on stdin and the block in a file", stdin, err, c.env)
	}
	b, err := os.ReadFile(c.dirs.root + "/shared.md")
	if err != nil || string(b) != "P as written\n" {
		t.Errorf("the system prompt file holds %q (%v)", b, err)
	}
	if fi, err := os.Stat(c.dirs.root + "/shared.md"); err != nil || fi.Mode().Perm() != 0o400 {
		t.Errorf("the system prompt file's mode: %v %v, want owner read-only", fi.Mode(), err)
	}
}

// TestGeminiStaysReadOnlyWithTheSharedBlockAsItsSystemPrompt: with the
// CLI's own system prompt replaced by the shared block, the fake model
// still asks it to write a file and run a shell command; neither happens
// (the tools are the approval mode's, not the prompt's).
func TestGeminiStaysReadOnlyWithTheSharedBlockAsItsSystemPrompt(t *testing.T) {
	needCLI(t, KindGemini)
	t.Parallel()
	srv := fakeprovider.New()
	defer srv.Close()
	srv.SetMode(fakeprovider.Tool)
	run := &cliRun{marker: "moot-test-shared-tool"}
	opts := Options{Grace: time.Second}
	opts.inspect = func(root string) {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasPrefix(d.Name(), srv.ToolFile) {
				run.files = append(run.files, p)
			}
			return nil
		})
	}
	a, err := New(cliEntry(KindGemini, srv, run.marker), opts)
	if err != nil {
		t.Fatal(err)
	}
	shared := "The problem (P):\nthe order total is recalculated twice\n----- end of the shared part -----\n\n"
	run.res, run.took = callInSlot(a, Request{Role: "solver", SolverID: "agente-1", PromptParts: []string{shared, cliPrompt},
		CachePrefix: len(shared), P: "# P\n", Timeout: 2 * time.Minute, Stdout: &run.out, Stderr: &run.err})
	if len(run.files) > 0 {
		t.Fatalf("the model's write or shell request left files behind: %v", run.files)
	}
	if srv.Attacks() == 0 {
		t.Fatal("the fake model never asked for a write or a shell command")
	}
	sawSystem := false
	for _, r := range srv.Requests() {
		if si, ok := r.Body["systemInstruction"].(map[string]any); ok {
			parts, _ := si["parts"].([]any)
			if len(parts) == 1 {
				text, _ := parts[0].(map[string]any)["text"].(string)
				sawSystem = sawSystem || strings.HasPrefix(text, "The problem (P):")
			}
		}
	}
	if !sawSystem {
		t.Error("the requests' system prompt was not the shared block")
	}
	run.checkClean(t)
}
