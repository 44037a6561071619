package bugfolder_test

import (
	"path/filepath"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

// TestDebateStateAgreesWithTheFullRead: for every debate folder of the
// sample register (finished, unfinished, hand-run, archived), the quick
// read a new debate's start relies on says what reading every call's file
// says: the state, whether it is moved aside and, for a finished debate
// whose problema.md records its start, the time its archive is named by.
func TestDebateStateAgreesWithTheFullRead(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	dirs, err := filepath.Glob(filepath.Join(proj, "_reversa_bugs", "*", "bugs", "*", "debate*"))
	if err != nil || len(dirs) < 4 {
		t.Fatalf("debate folders of the sample: %v %v", dirs, err)
	}
	dirs = append(dirs, filepath.Join(proj, "_reversa_bugs", "auth", "bugs", "none", "debate")) // no debate
	finished := 0
	for _, dir := range dirs {
		t.Run(filepath.Base(filepath.Dir(dir))+"/"+filepath.Base(dir), func(t *testing.T) {
			full, err := bugfolder.ReadDebate(dir, bugfolder.PT)
			if err != nil {
				t.Fatal(err)
			}
			quick, err := bugfolder.ReadDebateState(dir, bugfolder.PT)
			if err != nil {
				t.Fatal(err)
			}
			if quick.State != full.State || quick.Archivable() != full.Archivable() {
				t.Errorf("quick read: %s, archivable %v; full read: %s, archivable %v", quick.State, quick.Archivable(), full.State, full.Archivable())
			}
			if quick.State == bugfolder.StateDone && quick.Problem != nil && !quick.Problem.CreatedAt.IsZero() {
				finished++
				if !quick.ArchiveTime().Equal(full.ArchiveTime()) {
					t.Errorf("archive time: quick read %v, full read %v", quick.ArchiveTime(), full.ArchiveTime())
				}
			}
		})
	}
	if finished == 0 {
		t.Error("no finished debate with its start recorded in the sample: the archive time went untested")
	}
}
