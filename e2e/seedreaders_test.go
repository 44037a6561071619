package e2e

import (
	"strings"
	"testing"
)

// traces lists which of the trace tokens (TRACE<ROLE>R<round>S<n>, the
// fake's mark behaviour) a prompt holds.
func traces(prompt string, tokens ...string) (in, out []string) {
	for _, tok := range tokens {
		if strings.Contains(prompt, tok) {
			in = append(in, tok)
		} else {
			out = append(out, tok)
		}
	}
	return in, out
}

// A tradeoff discards no context: from round 2 a rebuttal reads the other
// side's round-0 argument beside its latest rebuttal, and the synthesizer
// reads the whole review (every round of both sides, round 0's positions
// and arguments included), anonymized and fenced.
func TestTradeoffReadersKeepTheWholeReview(t *testing.T) {
	p := newProject(t)
	p.Plan = "reviewer=mark"
	p.moot(tradeoffArgs("7", "-r", "2")...).mustExit(t, 0)
	rebuttal := p.prompt(2, "agente-1", 1)
	if _, miss := traces(rebuttal, "TRACEREVIEWERR0S2", "TRACEREVIEWERR1S2"); len(miss) > 0 {
		t.Errorf("round 2's rebuttal of A does not read B's %v:\n%s", miss, rebuttal)
	}
	if !strings.Contains(rebuttal, "Argumento de abertura do outro lado (rodada 0)") {
		t.Error("the opening argument is not named as such")
	}
	synth := p.prompt(2, "juiz", 1)
	all := []string{"TRACEREVIEWERR0S1", "TRACEREVIEWERR0S2", "TRACEREVIEWERR1S1", "TRACEREVIEWERR1S2", "TRACEREVIEWERR2S1", "TRACEREVIEWERR2S2"}
	if _, miss := traces(synth, all...); len(miss) > 0 {
		t.Errorf("the synthesizer does not read %v", miss)
	}
	for _, want := range []string{"## Posição defendida", "## Argumento", "## O que falsificaria esta posição", "REVISOR DA OPÇÃO A · RODADA 0", "REVISOR DA OPÇÃO B · RODADA 2"} {
		if !strings.Contains(synth, want) {
			t.Errorf("the synthesizer's prompt lacks %q", want)
		}
	}
	if strings.Contains(synth, "zeta") {
		t.Error("the synthesizer's prompt names an engine")
	}
}
