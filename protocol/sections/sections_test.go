package sections

import (
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

var (
	hA   = Heading{PT: "Argumento", EN: "Argument"}
	hB   = Heading{PT: "Evidências", EN: "Evidence"}
	want = []Heading{hA, hB}
)

// Check takes either language's heading, in any case with a trailing
// colon or note, rewrites it in the debate's language, and names what is
// missing, empty, repeated, out of order or foreign.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		lang       bugfolder.Lang
		problems   []string
		rewritten  string
	}{
		{"english body, portuguese debate", "## argument:\n\nx\n\n## Evidence (the log)\n\ny\n", bugfolder.PT, nil, "## Argumento\n\nx\n\n## Evidências\n\n(the log)\n\ny\n"}, // the note is kept, as text
		{"missing", "## Argumento\n\nx\n", bugfolder.PT, []string{"lacks the section ## Evidências"}, ""},
		{"empty", "## Argument\n\n## Evidence\n\ny\n", bugfolder.EN, []string{"section ## Argument is empty"}, ""},
		{"out of order", "## Evidence\n\ny\n\n## Argument\n\nx\n", bugfolder.EN, []string{"out of order"}, ""},
		{"twice", "## Argument\n\nx\n\n## Argument\n\nz\n\n## Evidence\n\ny\n", bugfolder.EN, []string{"appears twice"}, ""},
		{"foreign", "## Argument\n\nx\n\n## Verdict\n\nv\n\n## Evidence\n\ny\n", bugfolder.EN, []string{`"## Verdict" is not one of this step's`}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, _, problems := Check(tc.lang, tc.body, want)
			if len(problems) != len(tc.problems) {
				t.Fatalf("problems %q, want %q", problems, tc.problems)
			}
			for i, p := range tc.problems {
				if !strings.Contains(problems[i], p) {
					t.Errorf("problem %q lacks %q", problems[i], p)
				}
			}
			if tc.rewritten != "" && body != tc.rewritten {
				t.Errorf("body %q, want %q", body, tc.rewritten)
			}
		})
	}
}

// FuzzCheck: any answer an engine writes is checked without a panic, and
// an answer with no problem has every required section, non-empty.
func FuzzCheck(f *testing.F) {
	f.Add("## Argument\n\nx\n\n## Evidence\n\ny\n")
	f.Add("## Evidências:\n\n## argumento (nota)\n")
	f.Fuzz(func(t *testing.T, body string) {
		_, got, problems := Check(bugfolder.EN, body, want)
		if len(problems) == 0 {
			for _, h := range want {
				if got[h] == "" {
					t.Fatalf("no problem reported, but %s is empty or missing in %q", h.In(bugfolder.EN), body)
				}
			}
		}
	})
}
