package strictjson

import "testing"

func TestDuplicateKey(t *testing.T) {
	for _, c := range []struct {
		text, key string
		dup       bool
	}{
		{`{"verdict": "refuse", "verdict": "pass"}`, "verdict", true},
		{`{"a": {"b": 1, "b": 2}}`, "b", true},
		{`{"a": [{"x": 1}, {"x": 2}]}`, "", false}, // one key in each of two objects
		{`{"a": {"x": 1}, "x": 2}`, "", false},     // the same name at two depths
		{`{"a": "a", "b": "a"}`, "", false},        // a value equal to a key
		{`{"a": [1, "a"], "a": 0}`, "a", true},
		{`not json`, "", false},
	} {
		key, dup := DuplicateKey(c.text)
		if key != c.key || dup != c.dup {
			t.Errorf("DuplicateKey(%s) = %q, %v; want %q, %v", c.text, key, dup, c.key, c.dup)
		}
	}
}

// FuzzDuplicateKey: an engine's answer is outside input: never a panic,
// and a key is named only when it is given twice.
func FuzzDuplicateKey(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `{"a":{"b":[{"c":1}]}}`, `[{"a":1},{"a":1}]`, `{`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		key, dup := DuplicateKey(text)
		if !dup && key != "" {
			t.Fatalf("a key %q without a duplicate", key)
		}
	})
}
