package e2e

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestPassedThroughSecretsNeverLeakUnderCommonNamesOrCase: variables a
// user passes to an engine under the usual short names of a password or a
// session (MYSQL_PWD, DB_PASS, SESSION_COOKIE, REDIS_AUTH) are secrets, and
// a key an engine prints upper-cased is still redacted, in the bug folder
// and on screen.
func TestPassedThroughSecretsNeverLeakUnderCommonNamesOrCase(t *testing.T) {
	t.Parallel()
	secrets := map[string]string{"MYSQL_PWD": "hunter2-mysql-pwd", "DB_PASS": "db-pass-77aa88bb", "SESSION_COOKIE": "sess-cookie-5c5c5c5c", "REDIS_AUTH": "redis-auth-9d9d9d9d"}
	const vendorKey = "sk-openai-case-abcdef0123456789"
	p := newProject(t)
	p.writeConfig(`engines:
  leaky:
    kind: command
    command: ["` + fakeBin + `"]
    external: false
    env_passthrough: ["FAKE_*", MYSQL_*, DB_*, SESSION_*, REDIS_*, OPENAI_API_KEY]
defaults: {solver: leaky, judge: leaky}
`)
	p.Plan = "agente-1=leak,*=say"
	p.env = []string{"FAKE_LEAK=MYSQL_PWD,DB_PASS,SESSION_COOKIE,REDIS_AUTH", "OPENAI_API_KEY=" + vendorKey,
		"FAKE_SAY=the key is " + strings.ToUpper(vendorKey)}
	for k, v := range secrets {
		p.env = append(p.env, k+"="+v)
	}
	run := p.moot("run", "7", "--mode", "diagnosis", "-r", "0", "--yes", "--json")
	if run.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", run.code, run.stdout, run.stderr)
	}
	outputs := map[string]string{"moot run --json": run.stdout + run.stderr}
	for _, args := range [][]string{{"show", "7", "--round", "0"}, {"show", "7", "--final"}} {
		r := p.moot(args...)
		outputs["moot "+strings.Join(args, " ")] = r.stdout + r.stderr
	}
	_ = filepath.WalkDir(p.bugDir(), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(path)
			outputs[path] = string(b)
		}
		return nil
	})
	secrets["OPENAI_API_KEY upper-cased"] = strings.ToUpper(vendorKey)
	for where, text := range outputs {
		for name, v := range secrets {
			if strings.Contains(text, v) {
				t.Errorf("%s shows %s in clear", where, name)
			}
		}
	}
}

// TestAKeyTypedInAQuestionIsKeptNowhere: a key pasted into `moot ask`'s
// question is redacted in P, in problema.md's question, in the folder's
// name (its slug) and in what list and show print.
func TestAKeyTypedInAQuestionIsKeptNowhere(t *testing.T) {
	t.Parallel()
	const key = "sk-openai-question-0123456789abcdef"
	p := newProject(t)
	p.env = []string{"OPENAI_API_KEY=" + key}
	r := p.moot("ask", "Is "+key+" safe to log?", "--yes", "--headless", "--lang", "en")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	dirs, _ := filepath.Glob(filepath.Join(p.dir, ".moot", "debates", "*"))
	if len(dirs) != 1 {
		t.Fatalf("question folders: %v", dirs)
	}
	outputs := map[string]string{"moot ask": r.stdout + r.stderr, "the folder's name": filepath.Base(dirs[0])}
	for _, args := range [][]string{{"list"}, {"list", "--json"}, {"show", filepath.Base(dirs[0]), "--problem"}} {
		l := p.moot(args...)
		outputs["moot "+strings.Join(args, " ")] = l.stdout + l.stderr
	}
	_ = filepath.WalkDir(dirs[0], func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(path)
			outputs[path] = string(b)
		}
		return nil
	})
	if !strings.Contains(outputs[filepath.Join(dirs[0], "problema.md")], "[REDACTED]") {
		t.Errorf("problema.md does not mark the redacted key:\n%s", outputs[filepath.Join(dirs[0], "problema.md")])
	}
	for where, text := range outputs {
		for _, form := range []string{key, strings.ReplaceAll(key, "-", ""), "0123456789abcdef"} {
			if strings.Contains(strings.ToLower(text), form) {
				t.Errorf("%s keeps the key (%s…)", where, form[:6])
			}
		}
	}
}

// TestConcurrentAsksOfOneQuestionEachGetAFolder: four `moot ask` of the
// same question started at once all run, in folders numbered -, -2, -3,
// -4; none refuses because another holds its folder.
func TestConcurrentAsksOfOneQuestionEachGetAFolder(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.env = []string{"FAKE_DELAY_MS=300"}
	var wg sync.WaitGroup
	results := make([]result, 4)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = p.moot(argueArgs("-r", "1")...)
		}()
	}
	wg.Wait()
	for i, r := range results {
		if r.code != 0 {
			t.Errorf("ask %d: exit %d\n%s", i, r.code, r.stderr)
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(p.dir, ".moot", "debates", "*-should-we-cache-coupon-lookups*"))
	if len(dirs) != 4 {
		t.Fatalf("%d question folders, want 4: %v", len(dirs), dirs)
	}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "problema.md")); err != nil {
			t.Errorf("%s has no problema.md: %v", filepath.Base(d), err)
		}
	}
}

// TestReviewFilesScansTheGitUserAboutToCommitThem: a new file, never
// committed, names no author; the git user who will commit it is still
// who built it, and a review of it naming them is refused (exit 2)
// before any juror is called.
func TestReviewFilesScansTheGitUserAboutToCommitThem(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	tr.write("thanks.go", "package calc\n\n// Thanks, Ada Builder.\nconst Thanks = 1\n")
	r := tr.review("--files", "thanks.go", "--contract", "Thanks | a constant", "--lens", "defect")
	if r.code != 2 || !strings.Contains(r.stderr, "Ada Builder") {
		t.Errorf("the git user in an untracked --files file: exit %d, want 2 naming them\n%s", r.code, r.stderr)
	}
	if len(tr.calls()) != 0 {
		t.Error("jurors were called")
	}
}

// TestTrustSaysWhatItDoesNotCover: moot trust hashes the engines file and
// the programs it runs, not what they source; it says so when it trusts,
// so a user does not believe a changed library would be caught.
func TestTrustSaysWhatItDoesNotCover(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	r := p.moot("trust").mustExit(t, 0)
	if !strings.Contains(r.stdout, "not covered") || !strings.Contains(r.stdout, "source") {
		t.Errorf("moot trust does not say what it leaves out:\n%s", r.stdout)
	}
}

// TestAskNeverCreatesAFolderThroughAPlantedLink: a repository that
// commits .moot/debates as a link to another folder has ask refuse it
// (exit 2) before any folder is made there.
func TestAskNeverCreatesAFolderThroughAPlantedLink(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(p.dir, ".moot"), 0o700)
	if err := os.Symlink(outside, filepath.Join(p.dir, ".moot", "debates")); err != nil {
		t.Fatal(err)
	}
	r := p.moot(argueArgs()...)
	if r.code != 2 {
		t.Errorf("exit %d, want 2\n%s", r.code, r.stderr)
	}
	if got, _ := os.ReadDir(outside); len(got) != 0 {
		t.Errorf("ask made %d entries through the link, first %s", len(got), got[0].Name())
	}
}

// TestAKeyTypedInACouncilLensIsSentNowhere: a council member's lens
// text typed with a key in it reaches neither the engines' prompts nor
// problema.md nor the final answer in clear.
func TestAKeyTypedInACouncilLensIsSentNowhere(t *testing.T) {
	t.Parallel()
	const key = "sk-openai-lens-0123456789abcdef"
	p := newProject(t)
	p.env = []string{"OPENAI_API_KEY=" + key}
	r := p.moot("ask", "Should we cache?", "--protocol", "council", "--lens", "security: never log "+key, "--lens", "cost", "--criteria", "no "+key, "--yes", "--headless", "--lang", "en")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	_ = filepath.WalkDir(filepath.Join(p.dir, ".moot"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(path); strings.Contains(string(b), key) {
				t.Errorf("%s keeps the key in clear", path)
			}
		}
		return nil
	})
}
