package bugfolder

import (
	"os"
	"path/filepath"
	"regexp"
)

// rawStdoutRE names the raw stdout of one attempt ("agente-2.attempt-1.stdout").
var rawStdoutRE = regexp.MustCompile(`^.+\.attempt-\d+\.stdout$`)

// CountModelCalls counts the model calls a debate folder records: every
// attempt whose raw output was kept (a retried attempt included), in each
// round and in the judge's folder. A round or judge folder without raw
// output (written by hand, by another tool) counts its files instead; a
// human choice is not a call.
func CountModelCalls(d *Debate) int {
	n := 0
	ents, _ := os.ReadDir(d.Dir)
	for _, e := range ents {
		if !e.IsDir() || !roundDirRE.MatchString(e.Name()) {
			continue
		}
		dir := filepath.Join(d.Dir, e.Name())
		if c, ok := countRaw(filepath.Join(dir, "raw")); ok {
			n += c
			continue
		}
		files, _ := os.ReadDir(dir)
		for _, f := range files {
			if !f.IsDir() && debaterRE.MatchString(f.Name()) {
				n++
			}
		}
	}
	for _, jd := range []string{names[PT].JudgeID, names[EN].JudgeID} {
		if c, ok := countRaw(filepath.Join(d.Dir, jd, "raw")); ok {
			return n + c
		}
	}
	n += len(d.JudgeAttempts)
	if f := d.Final; f != nil && f.DecidedBy != "human" {
		n++
	}
	return n
}

// ModelCalls counts the model calls the debate records (CountModelCalls).
func (d *Debate) ModelCalls() int { return CountModelCalls(d) }

// countRaw counts the raw stdout files of a raw folder; ok is false when
// the folder does not exist.
func countRaw(dir string) (int, bool) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0, false
	}
	n := 0
	for _, e := range ents {
		if !e.IsDir() && rawStdoutRE.MatchString(e.Name()) {
			n++
		}
	}
	return n, true
}
