package envelope

import (
	"path"
	"strings"
)

// jsExts are the JavaScript and TypeScript extensions whose tests are
// X.test.* and X.spec.* (a .ts file's test may be .tsx, and so on).
var jsExts = []string{".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"}

// IsTestFile says whether a slash path names a test file by its
// language's convention (docs/cli.md): Go X_test.go, Python test_X.py or
// X_test.py, JS/TS X.test.* or X.spec.*.
func IsTestFile(rel string) bool {
	base := path.Base(rel)
	e := ext(base)
	stem := strings.TrimSuffix(base, path.Ext(base))
	switch {
	case e == ".go":
		return strings.HasSuffix(stem, "_test")
	case e == ".py":
		return strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test")
	case isJS(e):
		return strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec")
	}
	return false
}

// isJS says whether e is a JavaScript or TypeScript extension.
func isJS(e string) bool {
	for _, j := range jsExts {
		if e == j {
			return true
		}
	}
	return false
}

// TestCandidates returns where a file's tests may be, by its language's
// naming convention: beside it, and in a tests/ or __tests__/ folder
// beside it or beside its folder. A test file, or a file of another
// language, has none.
func TestCandidates(rel string) []string {
	if IsTestFile(rel) {
		return nil
	}
	dir, base := path.Split(rel)
	e := ext(base)
	stem := strings.TrimSuffix(base, path.Ext(base))
	var names []string
	switch {
	case e == ".go":
		// Go tests live in the package's own folder only
		return []string{dir + stem + "_test.go"}
	case e == ".py":
		names = []string{"test_" + stem + ".py", stem + "_test.py"}
	case isJS(e):
		for _, j := range jsExts {
			names = append(names, stem+".test"+j, stem+".spec"+j)
		}
	default:
		return nil
	}
	dirs := []string{dir, dir + "tests/", dir + "__tests__/"}
	if dir != "" {
		parent, _ := path.Split(strings.TrimSuffix(dir, "/"))
		dirs = append(dirs, parent+"tests/", parent+"__tests__/")
	}
	var out []string
	for _, d := range dirs {
		for _, n := range names {
			out = append(out, d+n)
		}
	}
	return out
}
