package persona

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChoose: with no persona given, two are chosen for the question, by
// whole words (never a keyword inside another word), among the project's
// own personas and the library's, and moot says which and why; a question
// matching no domain gets the default precise/resilient pair.
func TestChoose(t *testing.T) {
	cfo := Persona{Name: "cfo", Domain: "finance and unit economics", Text: "t"}
	for _, tc := range []struct {
		q       string
		project []Persona
		a, b    string
		why     string
	}{
		{"Is the Collatz conjecture decidable?", nil, "formalist", "pragmatist", `says "decidable"`},
		{"Should checkout cache coupon lookups?", nil, "pragmatist", "skeptic", `says "cache"`},
		{"Why is the sky blue?", nil, "formalist", "pragmatist", "default pair"},
		{"Is the new index worth the cost?", nil, "economist", "pragmatist", "contrasting default"},
		// substrings: "because" holds "use", "prototype" "type", "linux" "ux", "android" "roi"
		{"Is Linux on Android a prototype because of history?", nil, "formalist", "pragmatist", "default pair"},
		{"Do users want dark mode?", nil, "user-advocate", "pragmatist", `says "user"`},
		{"Can finance approve the caches?", []Persona{cfo}, "cfo", "skeptic", `cfo [.moot/personas/cfo.md] (the question says "finance")`},
		{"Is the refinancing plan sound?", []Persona{cfo}, "formalist", "pragmatist", "default pair"},
	} {
		pair, why := Choose(tc.q, tc.project)
		if pair[0].Name != tc.a || pair[1].Name != tc.b || !strings.Contains(why, tc.why) {
			t.Errorf("%q: %s, %s (%s); want %s, %s (%s)", tc.q, pair[0].Name, pair[1].Name, why, tc.a, tc.b, tc.why)
		}
	}
}

// TestLensFreezesWeights: a persona's frozen lens states its domain, its
// weights and how they shape its arguing, and its part in the mode.
func TestLensFreezesWeights(t *testing.T) {
	l := Library[2].Lens("devil's advocate")
	for _, want := range []string{"Persona skeptic", "fragility 0.90", "favour edge cases and failure modes", "Part: devil's advocate", "edge cases"} {
		if !strings.Contains(l.Text, want) {
			t.Errorf("lens lacks %q:\n%s", want, l.Text)
		}
	}
}

// TestProjectPersonas: .moot/personas/NAME.md overrides or adds a persona;
// a bad field is an error naming the file and the field.
func TestProjectPersonas(t *testing.T) {
	good := "---\nname: cfo\ndomain: finance\nprecision: 0.6\nresilience: 0.8\nfragility: 0.3\n---\nUnit economics, conservative on risk.\n"
	for _, tc := range []struct{ name, file, body, field string }{
		{"good", "cfo.md", good, ""},
		{"weight out of range", "cfo.md", strings.Replace(good, "fragility: 0.3", "fragility: 3", 1), "fragility"},
		{"no domain", "cfo.md", strings.Replace(good, "domain: finance\n", "", 1), "domain"},
		{"name differs", "cto.md", good, "name"},
		{"empty body", "cfo.md", strings.Replace(good, "Unit economics, conservative on risk.\n", "", 1), "body"},
		{"weight missing", "cfo.md", strings.Replace(good, "precision: 0.6\n", "", 1), "precision"},
		{"unknown field", "cfo.md", strings.Replace(good, "domain: finance\n", "domain: finance\nprecison: 0.9\n", 1), "precison"},
		{"field set twice", "cfo.md", strings.Replace(good, "domain: finance\n", "domain: finance\nname: cfo\n", 1), "set twice"},
		{"overrides a library persona badly", "skeptic.md", strings.Replace(strings.Replace(good, "cfo", "skeptic", 1), "fragility: 0.3", "fragility: 3", 1), "fragility"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, Dir), 0o700); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, Dir, tc.file)
			if err := os.WriteFile(path, []byte(tc.body), 0o600); err != nil {
				t.Fatal(err)
			}
			c, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			if tc.field != "" {
				// the bad file is refused by name, and says why; the
				// others stay usable (one bad file blocks no other ask)
				stem := strings.TrimSuffix(tc.file, ".md")
				_, err := c.Get(stem)
				if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.field) {
					t.Fatalf("Get(%s): error %v, want one naming %s and %s", stem, err, path, tc.field)
				}
				if probs := c.Problems(); len(probs) != 1 || probs[0].Error() != err.Error() {
					t.Errorf("Problems() = %v, want the file's error", probs)
				}
				if _, err := c.Get("formalist"); err != nil {
					t.Errorf("a library persona is blocked by a bad project file: %v", err)
				}
				for _, p := range c.Project() {
					if p.Name == stem {
						t.Errorf("the bad file is offered to the automatic choice: %+v", p)
					}
				}
				return
			}
			p, err := c.Get("cfo")
			if err != nil || p.Domain != "finance" || p.Resilience != 0.8 {
				t.Errorf("cfo: %+v %v", p, err)
			}
			if _, err := c.Get("nobody"); err == nil || !strings.Contains(err.Error(), "formalist") {
				t.Errorf("unknown persona: %v", err)
			}
		})
	}
}

// TestPersonaFolderSymlinkRefused: a persona file that is a symlink is
// refused, never followed.
func TestPersonaFolderSymlinkRefused(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "x.md")
	if err := os.WriteFile(outside, []byte("---\ndomain: d\nprecision: 0\nresilience: 0\nfragility: 0\n---\nx\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, Dir), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, Dir, "x.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil {
		t.Error("a symlinked persona file was read")
	}
}

// FuzzParseFile feeds persona files (outside input) to the parser: it
// never panics, and an accepted persona has weights in 0–1 and a text.
func FuzzParseFile(f *testing.F) {
	f.Add("---\nname: cfo\ndomain: finance\nprecision: 0.6\nresilience: 0.8\nfragility: 0.3\n---\nUnit economics.\n")
	f.Add("---\nprecision: NaN\n---\n")
	f.Fuzz(func(t *testing.T, raw string) {
		p, err := ParseFile("/p/cfo.md", []byte(raw))
		if err != nil {
			return
		}
		for _, w := range []float64{p.Precision, p.Resilience, p.Fragility} {
			if !(w >= 0 && w <= 1) {
				t.Errorf("weight %v accepted", w)
			}
		}
		if p.Text == "" || p.Domain == "" {
			t.Errorf("empty persona accepted: %+v", p)
		}
	})
}
