package seal

import (
	"os"
	"path/filepath"
	"testing"
)

// TestKeyIsTheUsersOwnAndSealsVerifyOnlyWithIt: the key is created once,
// owner-only in an owner-only folder, and read back the same; a key file
// another user could read is refused; a seal verifies for its parts only.
func TestKeyIsTheUsersOwnAndSealsVerifyOnlyWithIt(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	k1, err := Key()
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(KeyPath())
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file %v (%v), want mode 0600", fi, err)
	}
	if di, _ := os.Stat(filepath.Dir(KeyPath())); di.Mode().Perm() != 0o700 {
		t.Errorf("key folder mode %v, want 0700", di.Mode().Perm())
	}
	mu.Lock()
	cache = map[string][]byte{} // read it from disk again
	mu.Unlock()
	k2, err := Key()
	if err != nil || string(k1) != string(k2) {
		t.Fatalf("the key changed when read again: %v", err)
	}
	mac := Sum(k1, "review", "a", "b")
	for _, c := range []struct {
		key   []byte
		parts []string
		want  bool
	}{
		{k1, []string{"review", "a", "b"}, true},
		{k1, []string{"review", "a", "c"}, false},
		{k1, []string{"review", "a\x00b"}, false},
		{make([]byte, keySize), []string{"review", "a", "b"}, false},
	} {
		if got := Verify(c.key, mac, c.parts...); got != c.want {
			t.Errorf("Verify(%q) = %v, want %v", c.parts, got, c.want)
		}
	}
	if Verify(k1, "not hex", "review") {
		t.Error("a MAC that is not hex verified")
	}

	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	p := KeyPath()
	os.MkdirAll(filepath.Dir(p), 0o700)
	os.WriteFile(p, []byte("00\n"), 0o644)
	if _, err := Key(); err == nil {
		t.Error("a key file others can read was used")
	}
}
