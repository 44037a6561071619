package bugfolder

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// rawStdoutRE names the raw stdout of one attempt ("agente-2.attempt-1.stdout").
var rawStdoutRE = regexp.MustCompile(`^(.+)\.attempt-\d+\.stdout$`)

// CountModelCalls counts the model calls a debate folder records: every
// attempt whose raw output was kept (a retried attempt included), in each
// round and in the judge's folder; a debater file with no raw output
// (written by hand, or by another tool) counts once. A human choice is not
// a call.
func CountModelCalls(d *Debate) int {
	n := 0
	ents, _ := os.ReadDir(d.Dir)
	for _, e := range ents {
		if !e.IsDir() || !roundDirRE.MatchString(e.Name()) {
			continue
		}
		dir := filepath.Join(d.Dir, e.Name())
		raw := rawAttempts(filepath.Join(dir, "raw"))
		for _, c := range raw {
			n += c
		}
		files, _ := os.ReadDir(dir)
		for _, f := range files {
			if !f.IsDir() && debaterRE.MatchString(f.Name()) && raw[strings.TrimSuffix(f.Name(), ".md")] == 0 {
				n++
			}
		}
	}
	judged := 0
	// the canonical judge folder, and the translated one of older folders
	// (names[EN] shares the canonical one: counting it too doubled the count)
	for _, jd := range []string{names[PT].JudgeID, translated.JudgeID} {
		for _, c := range rawAttempts(filepath.Join(d.Dir, jd, "raw")) {
			judged += c
		}
	}
	if judged == 0 {
		judged = len(d.JudgeAttempts)
		if f := d.Final; f != nil && f.DecidedBy != "human" {
			judged++
		}
	}
	return n + judged
}

// ModelCalls counts the model calls the debate records (CountModelCalls).
func (d *Debate) ModelCalls() int { return CountModelCalls(d) }

// rawAttempts counts the raw stdout files of a raw folder, by debater id.
func rawAttempts(dir string) map[string]int {
	out := map[string]int{}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if m := rawStdoutRE.FindStringSubmatch(e.Name()); m != nil && !e.IsDir() {
			out[m[1]]++
		}
	}
	return out
}
