package bugfolder

// rubrics are the frozen criteria of each mode (docs/protocols/debate.md),
// written into problema.md before round 0.
var rubrics = map[Mode][2][]string{
	Diagnosis: {
		{
			"Poder explicativo sobre TODAS as evidências.",
			"Consistência com a cápsula de reprodução.",
			"Propõe um probe que discrimina entre as hipóteses.",
			"Não contradiz nenhum fato registrado.",
		},
		{
			"Explanatory power over ALL the evidence.",
			"Consistency with the reproduction capsule.",
			"Proposes a probe that discriminates between the hypotheses.",
			"Contradicts no recorded fact.",
		},
	},
	Repair: {
		{
			"Elimina a causa raiz confirmada.",
			"Menor mudança coerente.",
			"Menor risco de regressão (considerando change_risk).",
			"Reversibilidade.",
			"Aderência à spec efetiva e aos Agent Notes.",
		},
		{
			"Eliminates the confirmed root cause.",
			"Smallest coherent change.",
			"Lowest regression risk (considering change_risk).",
			"Reversibility.",
			"Adherence to the effective spec and to the Agent Notes.",
		},
	},
	Spec: {
		{
			"Pondera o comportamento observado.",
			"Pondera a spec efetiva e sua história (git, adendos).",
			"Pondera contratos e consumidores.",
			"RECOMENDA um veredito (spec-correta | spec-desatualizada | spec-gap) com evidências; nunca decide: a decisão é humana.",
		},
		{
			"Weighs the observed behaviour.",
			"Weighs the effective spec and its history (git, addenda).",
			"Weighs contracts and consumers.",
			"RECOMMENDS a verdict (spec-correct | spec-outdated | spec-gap) with evidence; it never decides: the decision is human.",
		},
	},
}

// Rubric returns the frozen criteria of a mode in a language form.
func Rubric(m Mode, l Lang) []string {
	r := rubrics[m][l]
	out := make([]string, len(r))
	copy(out, r)
	return out
}
