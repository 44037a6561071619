package bugfolder_test

import (
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// TestHostWinnerNamedAsAProposalWithGrafts: a host judge that names its
// winner as "Proposta B"/"Proposal B" on the first line of its winner
// section, followed by the grafts it took from another proposal, has that
// one winner — as it has when it writes the label "P-B".
func TestHostWinnerNamedAsAProposalWithGrafts(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		"## Vencedor\n\n**Proposta B**, com enxertos da Proposta A.\n",
		"## Winner\n\nProposal B (with grafts from Proposal A)\n",
		"## Vencedora\n\nProposta B — enxerto: a linha de base da Proposta C.\n",
	} {
		f, err := bugfolder.ParseFinal("resposta-final.md", []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		if f.Winner != "B" || f.Synthesis || len(f.WinnerAmbiguous) > 0 {
			t.Errorf("%q: winner %q synthesis %v ambiguous %v; want B", body, f.Winner, f.Synthesis, f.WinnerAmbiguous)
		}
	}
}

// TestHostWinnerSectionNamingTwoProposalsStaysUnknown: a winner section
// that names two proposals with no grafts between them names no single
// winner.
func TestHostWinnerSectionNamingTwoProposalsStaysUnknown(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		"## Vencedora\n\nProposta A e Proposta B empatam\n",
		"## Winner\n\nProposal A and Proposal B tie\n",
	} {
		f, err := bugfolder.ParseFinal("resposta-final.md", []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		if f.Winner != "" {
			t.Errorf("%q: winner %q; want none", body, f.Winner)
		}
	}
}

// TestHostVerdictUnderAPlainVerdictHeading: a host judge that writes its
// spec verdict under a heading that says only "Veredito" or "Verdict" (or
// a bold "Veredito:" line) has that verdict read; a sentence that merely
// opens with the word is not a verdict heading.
func TestHostVerdictUnderAPlainVerdictHeading(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ body, want string }{
		{"## Vencedora\n\nP-B\n\n## Veredito\n\n**spec-gap**\n", "spec-gap"},
		{"## Winner\n\nP-A\n\n## Verdict\n\n`spec-outdated`, not spec-gap.\n", "spec-outdated"},
		{"## Vencedora\n\nP-A\n\n**Veredito:** `spec-desatualizada`\n", "spec-desatualizada"},
		{"## Vencedora\n\nP-A\n\nVeredito dos agentes variou entre spec-gap e spec-correta.\n", ""},
	} {
		f, err := bugfolder.ParseFinal("resposta-final.md", []byte(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		if f.RecommendedVerdict != tc.want {
			t.Errorf("%q: verdict %q; want %q", tc.body, f.RecommendedVerdict, tc.want)
		}
	}
}

// TestHostVerdictUnderARecommendationHeading: a host judge that writes
// "## Recomendação" and then "Recomendo `spec-desatualizada`" (or the
// English "## Recommendation" / "I recommend") recommends that verdict; a
// "Recomendo" line that names none does not hide a verdict heading after
// it.
func TestHostVerdictUnderARecommendationHeading(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ body, want string }{
		{"## Vencedora\n\nP-A\n\n## Recomendação\n\nRecomendo `spec-desatualizada`: a spec descreve o fluxo antigo.\n", "spec-desatualizada"},
		{"## Winner\n\nP-B\n\n## Recommendation\n\nI recommend `spec-gap`.\n", "spec-gap"},
		{"## Vencedora\n\nP-A\n\nRecomendo `spec-correta`.\n", "spec-correta"},
		{"## Vencedora\n\nRecomendo adotar P-A.\n\n## Veredito\n\n`spec-gap`\n", "spec-gap"},
		{"## Vencedora\n\nP-A\n\n## Recomendação\n\nAdotar P-A com testes.\n", ""},
	} {
		f, err := bugfolder.ParseFinal("resposta-final.md", []byte(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		if f.RecommendedVerdict != tc.want {
			t.Errorf("%q: verdict %q; want %q", tc.body, f.RecommendedVerdict, tc.want)
		}
	}
}

// TestHostWinnerNamedInProseUnderAnotherHeading: a host judge that names
// its winner in a sentence under a heading that is not a winner heading
// ("## Decisão" — "A vencedora é a P-B"; "the winner is Proposal C") has
// that winner; a sentence naming no label names none.
func TestHostWinnerNamedInProseUnderAnotherHeading(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ body, want string }{
		{"## Decisão do juiz\n\nDepois de pesar as três, a vencedora é a P-B, por reproduzir o defeito.\n", "B"},
		{"## Outcome\n\nAfter weighing them, the winner is Proposal C.\n", "C"},
		{"## Decisão\n\nA P-A vence: é a única com teste.\n", "A"},
		{"## Decisão\n\nA vencedora é a que reproduz o defeito.\n", ""},
	} {
		f, err := bugfolder.ParseFinal("resposta-final.md", []byte(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		if f.Winner != tc.want {
			t.Errorf("%q: winner %q (solver %q, ambiguous %v); want %q", tc.body, f.Winner, f.WinnerSolver, f.WinnerAmbiguous, tc.want)
		}
	}
}
