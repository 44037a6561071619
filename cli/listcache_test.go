package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/internal/testutil"
)

// ageTree sets every file's and folder's times under dir to at.
func ageTree(t *testing.T, dir string, at time.Time) {
	t.Helper()
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, at, at)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// listIn runs `moot list` with the cache in cache and returns stdout.
func listIn(t *testing.T, dir, cache string, args ...string) string {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", cache)
	var out, errb strings.Builder
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, cwd: dir, getenv: func(k string) string {
		switch k {
		case "HOME", "XDG_CONFIG_HOME":
			return dir
		case "XDG_CACHE_HOME":
			return cache
		}
		return os.Getenv(k)
	}}
	if code := run(e, append([]string{"list"}, args...)); code != 0 {
		t.Fatalf("list: exit %d: %s", code, errb.String())
	}
	return out.String()
}

// cacheFile is the one file of the list cache under cache.
func cacheFile(t *testing.T, cache string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(cache, "moot", "list", "*.json"))
	if len(m) != 1 {
		t.Fatalf("list cache files: %v", m)
	}
	return m[0]
}

// TestListCacheNeverTrustedOverTheFiles: a second listing is served from
// the cache (owner-only, in the user's cache folder) and says the same; a
// file changed since — same size, another time — is read again; a damaged
// cache is ignored and rebuilt; folders changed in the last moments are
// never cached.
func TestListCacheNeverTrustedOverTheFiles(t *testing.T) {
	for _, shape := range []testutil.Shape{testutil.ShapeRecorded, testutil.ShapeHand} {
		proj, cache := t.TempDir(), t.TempDir()
		if err := testutil.GenerateRegisterShape(proj, 3, shape); err != nil {
			t.Fatal(err)
		}
		past := time.Now().Add(-time.Hour)
		ageTree(t, proj, past)
		first := listIn(t, proj, cache)
		firstJSON := listIn(t, proj, cache, "--json")
		cf := cacheFile(t, cache)
		for p, want := range map[string]os.FileMode{cf: 0o600, filepath.Dir(cf): 0o700} {
			if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
				t.Fatalf("%s: %v %v, want %v", p, fi.Mode(), err, want)
			}
		}
		if again := listIn(t, proj, cache); again != first || listIn(t, proj, cache, "--json") != firstJSON {
			t.Fatalf("shape %d: the cached listing differs:\n%s\nvs\n%s", shape, again, first)
		}
		// the cache is what served it: a planted title shows while the
		// files are unchanged
		raw, _ := os.ReadFile(cf)
		if err := os.WriteFile(cf, []byte(strings.ReplaceAll(string(raw), "Bug gerado n", "Bug plantado n")), 0o600); err != nil {
			t.Fatal(err)
		}
		if out := listIn(t, proj, cache); !strings.Contains(out, "Bug plantado") {
			t.Fatalf("shape %d: the listing did not come from the cache:\n%s", shape, out)
		}
		// the same size, another time: read again
		fin := filepath.Join(proj, "_reversa_bugs", "contexto-01", "bugs", "BUG-20260102-0001-bug-gerado", "debate", "resposta-final.md")
		body, err := os.ReadFile(fin)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(fin, []byte(strings.Replace(string(body), "winner: A", "winner: B", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(fin, past.Add(time.Minute), past.Add(time.Minute))
		out := listIn(t, proj, cache)
		if !strings.Contains(out, "proposal B (") || strings.Count(out, "Bug plantado") != 2 {
			t.Fatalf("shape %d: a changed final answer was not read again:\n%s", shape, out)
		}
		// a damaged cache: ignored, the listing the files give, rebuilt
		os.WriteFile(cf, []byte("{not json"), 0o600)
		os.WriteFile(fin, body, 0o644)
		ageTree(t, proj, past)
		if out := listIn(t, proj, cache); out != first {
			t.Fatalf("shape %d: with a damaged cache:\n%s\nwant\n%s", shape, out, first)
		}
		if raw, _ := os.ReadFile(cf); !strings.HasPrefix(string(raw), `{"format":`) {
			t.Fatalf("the damaged cache was not rebuilt: %.40s", raw)
		}
	}
}

// TestListCacheSkipsFreshFolders: a folder written a moment ago is never
// stored (a rewrite in the same clock tick would keep its fingerprint).
func TestListCacheSkipsFreshFolders(t *testing.T) {
	proj, cache := t.TempDir(), t.TempDir()
	if err := testutil.GenerateRegister(proj, 2); err != nil {
		t.Fatal(err)
	}
	listIn(t, proj, cache)
	if m, _ := filepath.Glob(filepath.Join(cache, "moot", "list", "*.json")); len(m) != 0 {
		raw, _ := os.ReadFile(m[0])
		if strings.Contains(string(raw), "bug-gerado") {
			t.Fatalf("fresh folders were cached: %s", raw)
		}
	}
}
