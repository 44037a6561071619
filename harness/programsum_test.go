package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestProgramDigestIsReusedOnlyForTheSameFile: a command engine's program
// is hashed once and its digest kept in the user's cache (owner-only);
// the next run takes it from there while the file is the one hashed, and
// hashes again once the file was rewritten (same size, same modification
// time: its change time moved) or replaced; a file changed within the
// last two seconds is not stored.
func TestProgramDigestIsReusedOnlyForTheSameFile(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "engine")
	cache := filepath.Join(dir, "cache", "programs.json")
	digest := func(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
	later := time.Now().Add(time.Hour) // the file settled
	if err := os.WriteFile(prog, []byte("#!/bin/sh\necho one\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	if got := programDigest(prog, cache, time.Now()); got != digest([]byte("#!/bin/sh\necho one\n")) {
		t.Fatalf("digest %s", got)
	}
	if _, err := os.Stat(cache); !os.IsNotExist(err) {
		t.Fatalf("the digest of a file changed just now was stored (%v)", err)
	}
	if got := programDigest(prog, cache, later); got != digest([]byte("#!/bin/sh\necho one\n")) {
		t.Fatalf("digest %s", got)
	}
	fi, err := os.Stat(cache)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the cache file: %v, mode %v; want it owner-only", err, fi)
	}
	// the next run reads the digest from the cache: a digest planted there
	// for the same fingerprint is what it returns
	var c programCache
	b, _ := os.ReadFile(cache)
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	planted := digest([]byte("planted"))
	c.Programs[prog] = programSum{Fingerprint: c.Programs[prog].Fingerprint, SHA256: planted}
	b, _ = json.Marshal(c)
	if err := os.WriteFile(cache, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := programDigest(prog, cache, later); got != planted {
		t.Fatalf("the second run hashed the file again (%s) instead of reading the cache", got)
	}
	// rewritten in place, same size, modification time put back: hashed again
	st, _ := os.Stat(prog)
	if err := os.WriteFile(prog, []byte("#!/bin/sh\necho two\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(prog, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	if got := programDigest(prog, cache, later); got != digest([]byte("#!/bin/sh\necho two\n")) {
		t.Fatalf("a rewritten program got the old digest %s", got)
	}
	// replaced by another file (a rename over it): hashed again
	other := filepath.Join(dir, "other")
	if err := os.WriteFile(other, []byte("#!/bin/sh\necho six\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, prog); err != nil {
		t.Fatal(err)
	}
	if got := programDigest(prog, cache, later); got != digest([]byte("#!/bin/sh\necho six\n")) {
		t.Fatalf("a replaced program got the old digest %s", got)
	}
	// a damaged cache is ignored
	if err := os.WriteFile(cache, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := programDigest(prog, cache, later); got != digest([]byte("#!/bin/sh\necho six\n")) {
		t.Fatalf("with a damaged cache: %s", got)
	}
}
