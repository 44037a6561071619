package testutil

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Shape is what the generated debates' files look like.
type Shape int

const (
	// ShapeRecorded: debates as moot writes them, the final answer's front
	// matter carrying the summary fields (winner_solver, totals).
	ShapeRecorded Shape = iota
	// ShapeHand: hand-run debates with hand-written final answers — no
	// summary fields, no event log — so a listing reads every call file.
	ShapeHand
	// ShapeMixed: every other bug of each shape.
	ShapeMixed
)

// ParseShape reads a shape's name: recorded, hand or mixed.
func ParseShape(s string) (Shape, error) {
	switch s {
	case "recorded", "":
		return ShapeRecorded, nil
	case "hand":
		return ShapeHand, nil
	case "mixed":
		return ShapeMixed, nil
	}
	return 0, fmt.Errorf("shape %q: want recorded, hand or mixed", s)
}

// GenerateRegister writes a register with n bugs under dir (a project
// folder), each with a finished 3×2 debate in the protocol's format, spread
// over 20 contexts. It is for benchmarks: the files are small but complete.
func GenerateRegister(dir string, n int) error { return GenerateRegisterShape(dir, n, ShapeRecorded) }

// GenerateRegisterShape is GenerateRegister with the debates' shape chosen.
func GenerateRegisterShape(dir string, n int, shape Shape) error {
	body := "## Hipóteses\n\nH1: o recálculo reaplica o desconto.\n\n## Causa raiz proposta\n\nacréscimo sem limpeza\n\n## Teste\n\nT\n\n## Impacto sobre a spec\n\nnenhum\n\n## Riscos e efeitos colaterais\n\nR\n\n## Evidências\n\nE\n\n## Confiança\n\nalta: ok\n"
	p := strings.Repeat("Linha do problema P com evidências e spec localizada.\n", 60)
	made := map[string]bool{} // each folder is made once, not once per file in it
	w := func(path, s string) error {
		if d := filepath.Dir(path); !made[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
			made[d] = true
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
		if shape == ShapeHand || shape == ShapeMixed && i%2 == 1 {
			// written by hand: the judge's answer names its winner by label
			// only, and nothing records totals or events
			files[filepath.Join(deb, "resposta-final.md")] = fmt.Sprintf("---\nprotocol_version: 1\nrole: judge\nsolver_id: juiz\nround: 2\nstatus: ok\nwinner: A\nlabels: {A: agente-2, B: agente-1, C: agente-3}\n---\n\n## Vencedora\n\nProposta A\n\n## Enxertos\n\nnenhum\n\n## Síntese\n\n%s", body)
			delete(files, filepath.Join(deb, "eventos.jsonl"))
		}
		for path, s := range files {
			if err := w(path, s); err != nil {
				return err
			}
		}
	}
	return nil
}

// CachedRegister returns a generated register of n bugs of the given shape
// in the temp folder, generating it only when an earlier run has not left
// it there (a "done" file marks a complete one): benchmarks at scale share
// it across runs.
func CachedRegister(n int, shape Shape) (string, error) {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("moot-bench-%d-%s", n, shapeNames[shape]))
	if n == 10000 && shape == ShapeRecorded {
		dir = filepath.Join(os.TempDir(), "moot-bench-10000") // the name earlier runs left
	}
	if _, err := os.Stat(filepath.Join(dir, "done")); err == nil {
		return dir, nil
	}
	// Generated beside it and renamed into place whole, so two benchmarks
	// (two test binaries) never read or remove each other's half-written
	// register: a folder without its done marker is an interrupted run's.
	tmp := fmt.Sprintf("%s.tmp-%d", dir, os.Getpid())
	if err := os.RemoveAll(tmp); err != nil {
		return "", err
	}
	if err := GenerateRegisterShape(tmp, n, shape); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	if err := os.WriteFile(filepath.Join(tmp, "done"), nil, 0o644); err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(dir, "done")); err == nil {
		return dir, os.RemoveAll(tmp) // another run finished first
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	return dir, os.Rename(tmp, dir)
}

var shapeNames = map[Shape]string{ShapeRecorded: "recorded", ShapeHand: "hand", ShapeMixed: "mixed"}
