package sumcache

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestFingerprintFollowsTheFiles: a file's size or time changing, a file
// added deep down, changes the fingerprint; a folder changed within the
// last two seconds has none.
func TestFingerprintFollowsTheFiles(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "debate", "rodada-1", "agente-1.md")
	os.MkdirAll(filepath.Dir(f), 0o755)
	os.WriteFile(f, []byte("abc"), 0o644)
	past := time.Now().Add(-time.Hour)
	age := func() {
		filepath.Walk(dir, func(p string, _ os.FileInfo, _ error) error { return os.Chtimes(p, past, past) })
	}
	age()
	now := time.Now()
	base := Fingerprint(dir, now)
	if base == "" || Fingerprint(dir, now) != base {
		t.Fatalf("fingerprint of an unchanged folder: %q", base)
	}
	steps := []struct {
		name   string
		change func()
	}{
		{"same size, another time", func() { os.Chtimes(f, past.Add(time.Second), past.Add(time.Second)) }},
		{"another size", func() { os.WriteFile(f, []byte("abcd"), 0o644); age() }},
		{"a file added three levels down", func() { os.WriteFile(filepath.Join(filepath.Dir(f), "agente-2.md"), nil, 0o644); age() }},
	}
	prev := base
	for _, s := range steps {
		s.change()
		got := Fingerprint(dir, now)
		if got == "" || got == prev {
			t.Errorf("%s: fingerprint %q (before %q)", s.name, got, prev)
		}
		prev = got
	}
	os.WriteFile(f, []byte("fresh"), 0o644)
	if got := Fingerprint(dir, time.Now()); got != "" {
		t.Errorf("a folder changed a moment ago has fingerprint %q", got)
	}
	link := t.TempDir()
	os.Symlink(dir, filepath.Join(link, "debate"))
	if got := Fingerprint(link, now.Add(time.Hour)); got != "" {
		t.Errorf("a folder holding a symbolic link has fingerprint %q", got)
	}
	if got := Fingerprint(filepath.Join(dir, "missing"), now); got != "" {
		t.Errorf("a missing folder has fingerprint %q", got)
	}
}

// TestCacheRoundTrip: a stored value is served only for its fingerprint
// and scope; values not used by a run leave the file.
func TestCacheRoundTrip(t *testing.T) {
	dir := t.TempDir()
	c := Open(dir, "scope")
	c.Put("/a", "fp1", map[string]int{"x": 1})
	c.Put("/b", "fp2", 2)
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c = Open(dir, "scope")
	if v, ok := c.Get("/a", "fp1"); !ok || string(v) != `{"x":1}` {
		t.Fatalf("get: %s %v", v, ok)
	}
	if _, ok := c.Get("/a", "fp-other"); ok {
		t.Fatal("served for another fingerprint")
	}
	if _, ok := Open(dir, "other scope").Get("/a", "fp1"); ok {
		t.Fatal("served for another scope")
	}
	if err := c.Save(); err != nil { // /b unused this run: dropped
		t.Fatal(err)
	}
	if _, ok := Open(dir, "scope").Get("/b", "fp2"); ok {
		t.Fatal("an entry no run used was kept")
	}
}

// FuzzOpen: whatever the cache file holds, opening it never fails or
// panics, and nothing is served for an empty fingerprint.
func FuzzOpen(f *testing.F) {
	f.Add([]byte(`{"format":1,"scope":"s","items":{"/a":{"fp":"x","value":1}}}`))
	f.Add([]byte(`{"format":1,"scope":"s","items":{"/a":{"fp":"","value":null}}}`))
	f.Add([]byte(`{not json`))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, raw []byte) {
		dir := t.TempDir()
		c := Open(dir, "s")
		os.WriteFile(c.path, raw, 0o600)
		c = Open(dir, "s")
		if _, ok := c.Get("/a", ""); ok {
			t.Fatal("served for an empty fingerprint")
		}
		c.Get("/a", "x")
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
	})
}
