package safefs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// tree makes a root with a file, a folder, a symlink inside, a symlink
// outside, a FIFO and a hard-linked file; and a file outside it.
func tree(t testing.TB) (root, outside string) {
	base := t.TempDir()
	root, outside = filepath.Join(base, "root"), filepath.Join(base, "outside")
	os.MkdirAll(filepath.Join(root, "dir"), 0o700)
	os.MkdirAll(outside, 0o700)
	os.WriteFile(filepath.Join(root, "dir", "file"), []byte("inside"), 0o600)
	os.WriteFile(filepath.Join(outside, "secret"), []byte("outside"), 0o600)
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "out-link"))
	os.Symlink(outside, filepath.Join(root, "out-dir"))
	os.Symlink("dir/file", filepath.Join(root, "in-link"))
	syscall.Mkfifo(filepath.Join(root, "fifo"), 0o600)
	os.WriteFile(filepath.Join(root, "linked"), []byte("linked"), 0o600)
	os.Link(filepath.Join(root, "linked"), filepath.Join(outside, "hard"))
	return root, outside
}

func TestOpenRegularRefuses(t *testing.T) {
	root, _ := tree(t)
	tests := []struct {
		rel  string
		mode Mode
		want error
	}{
		{"dir/file", NoSymlinks, nil},
		{"in-link", NoSymlinks, ErrEscape},
		{"in-link", Beneath, nil},
		{"out-link", Beneath, ErrEscape},
		{"out-dir/secret", Beneath, ErrEscape},
		{"out-dir/secret", NoSymlinks, ErrEscape},
		{"../outside/secret", Beneath, ErrEscape},
		{"fifo", NoSymlinks, ErrNotRegular},
		{"dir", NoSymlinks, ErrNotRegular},
		{"linked", NoSymlinks, ErrLinked},
	}
	for _, tt := range tests {
		t.Run(tt.rel, func(t *testing.T) {
			r, err := OpenRoot(root, tt.mode)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			done := make(chan error, 1)
			go func() {
				b, err := r.ReadFile(tt.rel, 0)
				if err == nil && string(b) == "outside" {
					err = errors.New("read the outside file")
				}
				done <- err
			}()
			select {
			case err := <-done:
				if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
					t.Errorf("ReadFile(%q) = %v, want %v", tt.rel, err, tt.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("ReadFile(%q) hung", tt.rel)
			}
		})
	}
}

// TestWriteNeverFollowsASymlink: both writers (durable, and the
// replace-only one for progress files) refuse a symlink or a file where a
// folder is, on the fast path for an existing folder too, replace a
// symlink as the file itself, and create missing folders.
func TestWriteNeverFollowsASymlink(t *testing.T) {
	writers := []struct {
		name  string
		write func(r *Root, rel string, data []byte) error
	}{
		{"WriteFile", func(r *Root, rel string, data []byte) error { return r.WriteFile(rel, data, 0o600, 0o700, true) }},
		{"ReplaceFile", func(r *Root, rel string, data []byte) error { return r.ReplaceFile(rel, data, 0o600, 0o700) }},
	}
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			root, outside := tree(t)
			r, _ := OpenRoot(root, NoSymlinks)
			defer r.Close()
			for _, rel := range []string{"out-dir/new", "out-dir/sub/new", "dir/file/new", "in-link/new"} {
				if err := w.write(r, rel, []byte("x")); err == nil {
					t.Errorf("wrote %s", rel)
				}
			}
			// a symlink as the file itself is replaced by the rename, never written through
			if err := w.write(r, "out-link", []byte("x")); err != nil {
				t.Fatal(err)
			}
			ents, _ := os.ReadDir(outside)
			if len(ents) != 2 {
				t.Errorf("the outside folder changed: %v", ents)
			}
			if b, _ := os.ReadFile(filepath.Join(outside, "secret")); string(b) != "outside" {
				t.Error("the outside file was written")
			}
			for _, data := range []string{"ok", "replaced"} { // a new folder, then an existing one
				if err := w.write(r, "dir/sub/new", []byte(data)); err != nil {
					t.Fatal(err)
				}
				fi, _ := os.Stat(filepath.Join(root, "dir", "sub", "new"))
				if b, _ := os.ReadFile(filepath.Join(root, "dir", "sub", "new")); fi == nil || fi.Mode().Perm() != 0o600 || string(b) != data {
					t.Errorf("new file: %v %q", fi, b)
				}
			}
			if ents, _ := os.ReadDir(filepath.Join(root, "dir", "sub")); len(ents) != 1 {
				t.Errorf("temp files left: %v", ents)
			}
		})
	}
}

func TestSweepTemps(t *testing.T) {
	root, _ := tree(t)
	r, _ := OpenRoot(root, NoSymlinks)
	defer r.Close()
	p, err := r.Create("dir/answer.md", 0o600, 0o700)
	if err != nil {
		t.Fatal(err)
	}
	p.Write([]byte("half")) // a run killed here leaves the temp file
	n, err := r.SweepTemps(".")
	if err != nil || n != 1 {
		t.Errorf("swept %d, %v", n, err)
	}
	if _, err := os.Stat(filepath.Join(root, "dir", "answer.md")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("a pending file appeared")
	}
}

// FuzzRootOpen: whatever relative path is asked for, what is read
// beneath the root is never the file outside it, and nothing hangs.
func FuzzRootOpen(f *testing.F) {
	for _, s := range []string{"dir/file", "out-link", "out-dir/secret", "../outside/secret", "dir/../out-dir/secret", "/etc/passwd", "in-link", "fifo", "./dir//file"} {
		f.Add(s, false)
	}
	root, _ := tree(f)
	f.Fuzz(func(t *testing.T, rel string, beneath bool) {
		if strings.ContainsRune(rel, 0) {
			return
		}
		mode := NoSymlinks
		if beneath {
			mode = Beneath
		}
		r, err := OpenRoot(root, mode)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		if b, err := r.ReadFile(rel, 1<<20); err == nil && string(b) == "outside" {
			t.Fatalf("read the outside file through %q", rel)
		}
	})
}

// TestEveryReadIsCapped: a sparse file past MaxRead (a committed 1 GB file
// costs git about 1 MB) is refused at once, naming the file, whatever
// limit the caller asked for: "no limit" is MaxRead.
func TestEveryReadIsCapped(t *testing.T) {
	p := filepath.Join(t.TempDir(), "eventos.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxRead + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, max := range []int64{0, -1, MaxRead * 4} {
		if _, err := ReadFile(p, max); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), p) {
			t.Errorf("ReadFile(max %d) = %v, want ErrTooLarge naming %s", max, err, p)
		}
	}
	if _, err := ReadFileString(p); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadFileString = %v, want ErrTooLarge", err)
	}
	root, err := OpenRoot(filepath.Dir(p), Beneath)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if _, err := root.ReadFile("eventos.jsonl", 0); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Root.ReadFile = %v, want ErrTooLarge", err)
	}
}
