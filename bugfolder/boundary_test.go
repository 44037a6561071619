package bugfolder

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/internal/testutil"
)

// TestARestrictedBugsAddendumIsRestrictedWhereverItIsBroughtIn: the
// addendum of a restricted bug lives in _reversa_sdd/addenda/, not in the
// bug's folder; named as evidence, by another bug's spec locator or
// through an evidence symlink, it makes what carries it restricted.
func TestARestrictedBugsAddendumIsRestrictedWhereverItIsBroughtIn(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	add := filepath.Join(proj, "_reversa_sdd", "addenda", "bug-BUG-20260720-R5T6-v001.md")
	if err := os.WriteFile(add, []byte("# Adendo v001 — BUG-20260720-R5T6\n\n- Seção alvo: `sdd/checkout.md#regra-desconto-cumulativo`\n- Vigência: em vigor\n\nSECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if h, err := RestrictedEvidence(proj, []string{add}); err != nil || !strings.Contains(h, "R5T6") {
		t.Errorf("--evidence of the addendum: holder %q (%v), want the restricted bug R5T6", h, err)
	}
	a7k3 := filepath.Join(proj, "_reversa_bugs", "checkout", "bugs", "BUG-20260715-A7K3-desconto-aplicado-duas-vezes")
	link := filepath.Join(a7k3, "evidence", "add.md")
	if err := os.Symlink(add, link); err != nil {
		t.Fatal(err)
	}
	if _, b, err := Resolve(proj, "7"); err != nil || !b.Restricted() {
		t.Errorf("a bug with an evidence symlink to the addendum: restricted %v (%v), want restricted", b != nil && b.Restricted(), err)
	}
	os.Remove(link)
	md := filepath.Join(a7k3, "bug.md")
	raw, _ := os.ReadFile(md)
	s := strings.Replace(string(raw), "    - sdd/checkout.md#5-fechamento-do-pedido\n", "    - sdd/checkout.md#5-fechamento-do-pedido\n    - _reversa_sdd/addenda/bug-BUG-20260720-R5T6-v001.md\n", 1)
	os.WriteFile(md, []byte(s), 0o600)
	if _, b, err := Resolve(proj, "7"); err != nil || !b.Restricted() {
		t.Errorf("a bug whose spec locator names the addendum: restricted %v (%v), want restricted", b != nil && b.Restricted(), err)
	}
}

// TestARegisterBehindALinkedParentIsRefused: state.json's bugs_folder
// "evil/bugs" where evil is a link out of the project names a register
// outside it: refused, as a linked _reversa_bugs is.
func TestARegisterBehindALinkedParentIsRefused(t *testing.T) {
	proj := t.TempDir()
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(outside, "bugs"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(proj, "evil")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(proj, ".reversa"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, ".reversa", "state.json"), []byte(`{"bugs_folder": "evil/bugs"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if reg, err := FindRoot(proj); err == nil {
		t.Fatalf("the register %s outside the project was opened", reg.Root)
	}
}
