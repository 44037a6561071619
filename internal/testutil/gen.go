package testutil

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// GenerateRegister writes a register with n bugs under dir (a project
// folder), each with a finished 3×2 debate in the protocol's format, spread
// over 20 contexts. It is for benchmarks: the files are small but complete.
func GenerateRegister(dir string, n int) error {
	body := "## Hipóteses\n\nH1: o recálculo reaplica o desconto.\n\n## Causa raiz proposta\n\nacréscimo sem limpeza\n\n## Teste\n\nT\n\n## Impacto sobre a spec\n\nnenhum\n\n## Riscos e efeitos colaterais\n\nR\n\n## Evidências\n\nE\n\n## Confiança\n\nalta: ok\n"
	p := strings.Repeat("Linha do problema P com evidências e spec localizada.\n", 60)
	w := func(path, s string) error {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		return os.WriteFile(path, []byte(s), 0o644)
	}
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("BUG-2026%04d-%04X", 101+i%1200, i)
		ctx := fmt.Sprintf("contexto-%02d", i%20)
		bug := filepath.Join(dir, "_reversa_bugs", ctx, "bugs", id+"-bug-gerado")
		deb := filepath.Join(bug, "debate")
		// the final answer's totals are the sum of its 10 calls' figures, as
		// moot writes them: list, show, the browser and the header agree
		callUSD := 0.001 * float64(i%9+1)
		files := map[string]string{
			filepath.Join(bug, "bug.md"):            fmt.Sprintf("---\nschema_version: 1\nid: %s\ndisplay_number: %d\ntitle: Bug gerado número %d\nstatus: open\nvisibility: normal\ntraceability:\n  specs: []\n---\n\n# Bug gerado número %d\n\n## Summary\n\nGerado para medir o navegador.\n", id, i+1, i+1, i+1),
			filepath.Join(deb, "problema.md"):       fmt.Sprintf("---\nprotocol_version: 1\nbug_id: %s\nmode: diagnosis\nn: 3\nr: 2\nsolvers: {agente-1: local, agente-2: local, agente-3: local}\ncritics: {}\njudge: local\ntimeout: 10m\ncreated_at: 2026-07-15T10:00:00Z\n---\n\n## Rubrica\n\n1. a\n2. b\n3. c\n4. d\n\n## P\n\n%s", id, p),
			filepath.Join(deb, "resposta-final.md"): fmt.Sprintf("---\nprotocol_version: 1\ndebate_id: %s-final\nbug_id: %s\nrole: judge\nsolver_id: juiz\nengine: local\nround: 2\nstatus: ok\ntokens_in: 2000\ntokens_out: 500\ncost_usd: %.4f\nwinner: A\nwinner_solver: agente-2\nlabels: {A: agente-2, B: agente-1, C: agente-3}\naccepted_contributions: 2\ndecided_by: judge\nparticipants: 3 de 3\ntotal_tokens: %d\ntotal_cost_usd: %.4f\nhealth_tokens_per_contribution: %d\n---\n\n## Vencedora\n\nProposta A\n\n## Enxertos\n\nnenhum\n\n## Justificativa por critério\n\n1. a\n2. b\n3. c\n4. d\n\n## Síntese\n\n%s", id, id, callUSD, 10*2500, 10*callUSD, 10000+i/2, body),
			filepath.Join(deb, "convergencia.md"):   "# Convergência\n\n| rodada | válidos | confiança | dispersão | concordância | movimento |\n|---|---|---|---|---|---|\n| 0 | 3/3 | 0/0/3 | 0 | 0.50 | — |\n",
			filepath.Join(deb, "eventos.jsonl"):     `{"type":"setup"}` + "\n" + `{"type":"debate_finished","status":"done"}` + "\n",
		}
		for k := 0; k <= 2; k++ {
			for s := 1; s <= 3; s++ {
				files[filepath.Join(deb, fmt.Sprintf("rodada-%d", k), fmt.Sprintf("agente-%d.md", s))] = fmt.Sprintf("---\nprotocol_version: 1\nrole: solver\nsolver_id: agente-%d\nengine: local\nround: %d\nstatus: ok\ntokens_in: 2000\ntokens_out: 500\ncost_usd: %.4f\n---\n%s", s, k, callUSD, body)
			}
		}
		for path, s := range files {
			if err := w(path, s); err != nil {
				return err
			}
		}
	}
	return nil
}
