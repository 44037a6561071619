package cli

import "testing"

// A section keeps what must be true and loses every sub-section about the
// old behaviour, up to the next heading of that sub-section's level or
// above; a heading inside a code fence is text.
func TestWithoutOldBehaviourCutsSubSectionsAboutTheOldCode(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"rounds half up\n", "rounds half up\n"},
		{"rounds half up\n\n### Actual Behavior\n\nrounds down\n", "rounds half up\n\n"},
		{"a\n### Resumo:\nold\n#### detail\nold too\n### Spec\nb\n", "a\n### Spec\nb\n"},
		{"a\n### Comportamento Atual\nold\n### Sumário\nold\n### Frete\nb\n", "a\n### Frete\nb\n"},
		{"a\n```\n### Summary\n```\n", "a\n```\n### Summary\n```\n"},
	} {
		if got := withoutOldBehaviour(c.in); got != c.want {
			t.Errorf("withoutOldBehaviour(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
