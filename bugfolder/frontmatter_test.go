package bugfolder

import (
	"strings"
	"testing"
)

func TestParseDocument(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		wantKeys []string
		wantBody string
		wantErr  string
	}{
		{name: "no front matter", in: "# Title\n\nbody\n", wantBody: "# Title\n\nbody\n"},
		{name: "front matter", in: "---\nid: X\nn: 3\n---\n## A\n", wantKeys: []string{"id", "n"}, wantBody: "## A\n"},
		{name: "CRLF", in: "---\r\nid: X\r\n---\r\nline1\r\nline2\r\n", wantKeys: []string{"id"}, wantBody: "line1\nline2\n"},
		{name: "BOM", in: "\ufeff---\nid: X\n---\nbody\n", wantKeys: []string{"id"}, wantBody: "body\n"},
		{name: "dots close", in: "---\nid: X\n...\nbody\n", wantKeys: []string{"id"}, wantBody: "body\n"},
		{name: "trailing spaces on delimiters", in: "---  \nid: X\n--- \nbody\n", wantKeys: []string{"id"}, wantBody: "body\n"},
		{name: "empty front matter", in: "---\n---\nbody\n", wantBody: "body\n"},
		{name: "no body", in: "---\nid: X\n---", wantKeys: []string{"id"}, wantBody: ""},
		{name: "unclosed", in: "---\nid: X\nbody\n", wantErr: "never closed"},
		{name: "bad yaml names the file line", in: "---\nid: X\n  bad: [\n---\n", wantErr: "line"},
		{name: "not a mapping", in: "---\n- a\n- b\n---\n", wantErr: "mapping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := ParseDocument([]byte(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := Keys(doc.Meta); strings.Join(got, ",") != strings.Join(tt.wantKeys, ",") {
				t.Errorf("keys = %v, want %v", got, tt.wantKeys)
			}
			if doc.Body != tt.wantBody {
				t.Errorf("body = %q, want %q", doc.Body, tt.wantBody)
			}
		})
	}
}

func TestYAMLErrorLineIsTheFileLine(t *testing.T) {
	// the bad line is line 3 of the file (line 2 of the YAML fragment)
	_, err := ParseDocument([]byte("---\nid: X\nc: d: e\n---\n"))
	if err == nil || !strings.Contains(err.Error(), "line 3:") {
		t.Fatalf("err = %v, want a line number counted in the file", err)
	}
}

func TestLenientFields(t *testing.T) {
	doc, err := ParseDocument([]byte("---\nround: \"2\"\nn: 3.0\nbad: x\nlist: one\ncost: 0.5\nwhen: 2026-07-15T10:00:00Z\n---\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := doc.Meta
	if v, ok, err := intField(m, "round"); v != 2 || !ok || err != nil {
		t.Errorf("round = %d %v %v", v, ok, err)
	}
	if v, _, _ := intField(m, "n"); v != 3 {
		t.Errorf("n = %d", v)
	}
	if _, ok, err := intField(m, "bad"); !ok || err == nil {
		t.Errorf("bad: ok=%v err=%v, want an error", ok, err)
	}
	if got := stringList(m, "list"); len(got) != 1 || got[0] != "one" {
		t.Errorf("list = %v", got)
	}
	if floatField(m, "cost") != 0.5 {
		t.Errorf("cost = %v", floatField(m, "cost"))
	}
	if timeField(m, "when").IsZero() {
		t.Error("when not parsed")
	}
}

// FuzzParseDocument: any bytes either parse or give an error; never a
// panic, and the body is always a suffix of the normalised text.
func FuzzParseDocument(f *testing.F) {
	for _, s := range []string{
		"---\nid: X\n---\nbody\n",
		"\ufeff---\r\nid: [a, b]\r\n---\r\n## Teste\r\n",
		"# only body",
		"---\n---\n",
		"---\nkey: |\n  multi\n  line\n---\n",
		"---\n&a [*a]\n---\n",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		doc, err := ParseDocument(b)
		if err != nil {
			return
		}
		if !strings.HasSuffix(NormalizeText(b), doc.Body) {
			t.Fatalf("body %q is not a suffix of the input", doc.Body)
		}
		_ = Keys(doc.Meta)
	})
}
