package cli

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/reversa/moot/internal/testutil"
)

// TestTheWizardNamesItsPersonasFieldWhenAPersonaIsUnknown: a persona
// moot ask refuses (no library persona, no project file) is refused by
// the wizard's check of the question as typed for the same reason, named
// by its Personas field, never the --persona flag it does not have; moot
// ask itself still names its flag.
func TestTheWizardNamesItsPersonasFieldWhenAPersonaIsUnknown(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	const reason = `"nosuchpersona" is no persona`
	code, _, stderr := moot(t, proj, "ask", "--headless", "--yes", "--persona", "nosuchpersona", "--persona", "skeptic", "Should checkout cache coupon lookups?")
	if code != 2 || !strings.Contains(stderr, "--persona: "+reason) {
		t.Errorf("moot ask: exit %d, %s; want 2 naming --persona", code, stderr)
	}
	e := &env{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, cwd: proj, getenv: func(k string) string {
		if k == "HOME" || k == "XDG_CONFIG_HOME" {
			return proj
		}
		return os.Getenv(k)
	}}
	var reserved []string
	_, _, err := askForWizard(e, &reserved)([]string{"--protocol", "argue", "-r", "2", "--persona", "nosuchpersona", "--persona", "skeptic", "--", "Should checkout cache coupon lookups?"}, false)
	if err == nil {
		t.Fatal("the wizard accepts a persona moot ask refuses")
	}
	if msg := err.Error(); strings.Contains(msg, "--persona") || !strings.Contains(msg, "Personas: "+reason) {
		t.Errorf("the wizard's refusal is not in its words (its Personas field, no flag): %v", err)
	}
	if len(reserved) != 0 {
		t.Errorf("a refused check reserved folders: %q", reserved)
	}
}

// TestTheWizardNamesItsPersonasFieldWhenAPersonaIsGivenTwice: argue's
// refusal of a persona typed twice names the Personas field too.
func TestTheWizardNamesItsPersonasFieldWhenAPersonaIsGivenTwice(t *testing.T) {
	if got := inWizardFields(errors.New("--persona skeptic is given twice: each persona argues once")).Error(); got != "Personas: skeptic is given twice: each persona argues once" {
		t.Errorf("got %q", got)
	}
	if inWizardFields(nil) != nil {
		t.Error("no refusal became one")
	}
}
