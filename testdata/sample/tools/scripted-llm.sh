#!/bin/sh
# scripted-llm: a stand-in "model" for trying moot without one.
#
# moot runs it as a `command` engine: the prompt arrives on stdin and the
# answer goes to stdout. It answers in the debate protocol's format with
# canned text (varied per solver), in the prompt's language, as a solver,
# a critic or the judge (and as tradeoff's reviewer or synthesizer, council's
# member or synthesizer, argue's persona, scorer and synthesizer, and a review's juror). It never reads the project and knows nothing about
# the bug: it only shows how a debate flows and what moot writes.
set -u
prompt=$(cat)
role=${MOOT_ROLE:-solver}
id=${MOOT_SOLVER_ID:-agente-1}
round=${MOOT_ROUND:-0}

case "$prompt" in *"You are "*) en=1 ;; *) en=0 ;; esac
mode=$(printf '%s\n' "$prompt" | grep -E '^Mod[eo]: (diagnosis|repair|spec)' | head -n 1 | sed 's/^Mod[eo]: \([a-z]*\).*/\1/')
[ -n "$mode" ] || mode=diagnosis

h() { # h PORTUGUESE ENGLISH: a level-2 heading in the prompt's language
	if [ "$en" = 1 ]; then printf '## %s\n\n' "$2"; else printf '## %s\n\n' "$1"; fi
}
t() { # t PORTUGUESE ENGLISH: a line of text in the prompt's language
	if [ "$en" = 1 ]; then printf '%s\n' "$2"; else printf '%s\n' "$1"; fi
}

case "$id" in
*1) idea=$(t "o recálculo disparado pela troca de CEP reaplica o desconto progressivo" "the recalculation triggered by the postcode change applies the tiered discount again") ;;
*2) idea=$(t "aplicar_desconto acrescenta descontos sem limpar os anteriores" "aplicar_desconto appends discounts without clearing the earlier ones") ;;
*) idea=$(t "frete e desconto recalculam em paralelo e a ordem decide o total" "shipping and discount recalculate concurrently and the order decides the total") ;;
esac

peers=$(printf '%s\n' "$prompt" | grep -oE '<<<(INÍCIO|BEGIN) (agente|agent)-[0-9]+' | sed 's/.* //' | sort -u)

critique() {
	h "Crítica às demais propostas" "Critique of the other proposals"
	for p in $peers; do
		t "- $p: explica o log, mas o teste precisa repetir a troca de CEP 10 vezes." "- $p: explains the log, but the test must repeat the postcode change 10 times."
	done
	printf '\n'
}

solver_body() {
	case "$mode" in
	repair) h "Estratégia de correção" "Fix strategy"; t "Limpar os descontos do carrinho antes de recalcular; manter a assinatura pública." "Clear the cart's discounts before recalculating; keep the public signature." ;;
	spec) h "Leitura da regra" "Reading of the rule"; t "A regra 4.1 permite um só desconto percentual, o maior." "Rule 4.1 allows a single percentage discount, the larger one." ;;
	*) h "Hipóteses" "Hypotheses"; t "H1: $idea." "H1: $idea."; t "H2: o cupom é aplicado duas vezes no fechamento." "H2: the coupon is applied twice at checkout." ;;
	esac
	printf '\n'
	if [ "$mode" = diagnosis ]; then
		h "Causa raiz proposta" "Proposed root cause"; t "$idea." "$idea."; printf '\n'
	fi
	h "Teste" "Test"; t "Carrinho com cupom e 3 itens, trocar o CEP, fechar: esperar um só desconto." "Cart with a coupon and 3 items, change the postcode, close: expect one discount."; printf '\n'
	h "Impacto sobre a spec" "Impact on the spec"; t "Nenhum: a regra 4.1 já proíbe o acúmulo." "None: rule 4.1 already forbids stacking."; printf '\n'
	h "Riscos e efeitos colaterais" "Risks and side effects"; t "Pedidos em aberto recalculados mudam de total." "Open orders that are recalculated change their total."; printf '\n'
	h "Evidências" "Evidence"; t "- evidence/fechamento.log: dois eventos de desconto no mesmo carrinho." "- evidence/fechamento.log: two discount events on the same cart."; printf '\n'
	h "Confiança" "Confidence"; t "média: a cápsula reproduz 7 de 10 vezes." "medium: the capsule reproduces 7 times out of 10."
	if [ "$round" -ge 1 ]; then printf '\n'; critique; fi
}

critic_body() {
	critique
	h "Evidências" "Evidence"; t "- evidence/reproduction.md" "- evidence/reproduction.md"; printf '\n'
	h "Confiança" "Confidence"; t "média: as propostas convergem na causa." "medium: the proposals converge on the cause."
}

judge_body() {
	labels=$(printf '%s\n' "$prompt" | awk '/^# (Propostas finais|Final proposals)/ { p = 1 } p' |
		grep -oE '<<<(INÍCIO|BEGIN) (PROPOSTA|PROPOSAL) [A-Z] ' | awk '{ print $3 }')
	winner=$(printf '%s\n' "$labels" | head -n 1)
	other=$(printf '%s\n' "$labels" | sed -n '2p')
	# the rubric is in the judge's own part: after the block every prompt
	# shares (P), before the proposals
	criteria=$(printf '%s\n' "$prompt" | awk '/end of the shared part/ { on = 1; next } /^# (Propostas finais|Final proposals)/ { exit } on && /^[0-9]+\. / { n++ } END { print n + 0 }')
	label=Proposta
	[ "$en" = 1 ] && label=Proposal
	h "Vencedora" "Winner"; printf '%s %s\n\n' "$label" "$winner"
	h "Enxertos" "Grafts"
	if [ -n "$other" ]; then
		t "- $label $other: o teste que repete a troca de CEP." "- $label $other: the test that repeats the postcode change."
	else
		t "nenhum" "none"
	fi
	printf '\n'
	h "Justificativa por critério" "Rationale per criterion"
	i=1
	while [ "$i" -le "$criteria" ]; do
		t "$i. Critério $i: a vencedora o atende melhor." "$i. Criterion $i: the winner meets it best."
		i=$((i + 1))
	done
	printf '\n'
	h "Síntese" "Synthesis"
	round=0 solver_body
	if [ "$mode" = spec ]; then
		printf '\n'
		t "Veredito recomendado: spec-correta. É uma recomendação: a decisão sobre a spec é humana." "Recommended verdict: spec-correct. It is a recommendation: the decision on the spec is a human's."
	fi
}

reviewer_body() { # a tradeoff reviewer: its option (A or B) is MOOT_LENS
	side=${MOOT_LENS:-A}
	if [ "$round" -ge 1 ]; then
		h "Resposta ao ponto mais forte" "Answer to the strongest point"; t "O ponto mais forte do outro lado é o risco em pedidos abertos; o teste de 10 trocas de CEP o cobre." "The other side's strongest point is the risk to open orders; the 10-postcode-change test covers it."; printf '\n'
		h "Mudei de conclusão" "Changed my conclusion"; t "não: o log mostra dois eventos de desconto, e a opção $side os elimina." "no: the log shows two discount events, and option $side removes them."; printf '\n'
		h "Evidências" "Evidence"; t "- evidence/fechamento.log" "- evidence/fechamento.log"
		return
	fi
	h "Posição defendida" "Position"; t "Opção $side." "Option $side."; printf '\n'
	h "Argumento" "Argument"; t "A opção $side remove a causa com a menor mudança: $idea." "Option $side removes the cause with the smallest change: $idea."; printf '\n'
	h "Evidências" "Evidence"; t "- evidence/fechamento.log: dois eventos de desconto no mesmo carrinho." "- evidence/fechamento.log: two discount events on the same cart."; printf '\n'
	h "O que falsificaria esta posição" "What would falsify it"; t "Um teste que reproduza o desconto duplo com a opção $side aplicada." "A test that reproduces the double discount with option $side applied."
}

synthesizer_body() { # a tradeoff synthesis, naming each side the prompt says is missing
	missing=$(printf '%s\n' "$prompt" | grep -oE '(REVISOR DA OPÇÃO|REVIEWER OF OPTION) [AB]: (AUSENTE|MISSING)' | grep -oE ' [AB]:' | tr -d ' :')
	h "Fatos acordados" "Agreed facts"; t "- O desconto é aplicado duas vezes (evidence/fechamento.log)." "- The discount is applied twice (evidence/fechamento.log)."; printf '\n'
	h "Alegações contestadas" "Contested claims"; t "- O risco em pedidos abertos: A diz baixo, B diz alto." "- The risk to open orders: A says low, B says high."; printf '\n'
	h "Saídas ausentes ou falhas" "Missing or failed outputs"
	if [ -n "$missing" ]; then for m in $missing; do t "- Opção $m: ausente" "- Option $m: missing"; done; else t "nenhuma" "none"; fi
	printf '\n'
	h "Recomendação" "Recommendation"; t "Opção A, com o teste de 10 trocas de CEP." "Option A, with the 10-postcode-change test."; printf '\n'
	h "Incerteza" "Uncertainty"; t "média: a cápsula reproduz 7 de 10 vezes." "medium: the capsule reproduces 7 times out of 10."; printf '\n'
	h "O que mudaria a recomendação" "What would change it"; t "Um pedido aberto cujo total muda com a opção A." "An open order whose total changes under option A."; printf '\n'
	h "Decisão humana pendente" "Pending human decision"; t "aprovar, recusar ou revisar: cabe ao humano." "approve, decline or revise: the human's to make."
}

member_body() { # a council member: its lens is MOOT_LENS
	lens=${MOOT_LENS:-lens}
	if [ "$round" -ge 1 ]; then
		h "Concordo com" "Agree with"; t "- as outras lentes sobre o desconto duplicado (evidence/fechamento.log)." "- the other lenses on the double discount (evidence/fechamento.log)."; printf '\n'
		h "Discordo de" "Disagree with"; t "nenhum" "none"; printf '\n'
		h "Ponto cego identificado" "Blind spot"; t "- ninguém olhou os pedidos já fechados." "- nobody looked at the orders already closed."; printf '\n'
		h "Mantenho minha posição" "Do I keep my position"; t "sim: pela lente $lens, a evidência não mudou." "yes: through the $lens lens, the evidence did not change."; printf '\n'
		h "Confiança" "Confidence"; t "80 %" "80 %"
		return
	fi
	h "Recomendação" "Recommendation"; t "Pela lente $lens: $idea; corrigir antes do próximo fechamento." "Through the $lens lens: $idea; fix it before the next checkout."; printf '\n'
	h "Raciocínio" "Reasoning"; t "A lente $lens pesa o que o desconto duplo custa." "The $lens lens weighs what the double discount costs."; printf '\n'
	h "Evidências" "Evidence"; t "- evidence/fechamento.log: dois eventos de desconto no mesmo carrinho." "- evidence/fechamento.log: two discount events on the same cart."; printf '\n'
	h "Confiança" "Confidence"; t "75 %" "75 %"; printf '\n'
	h "Limitações" "Limitations"; t "- não vi os logs de produção." "- I did not see production logs."
}

council_synthesis() { # a council synthesis, naming each member the prompt says is missing
	missing=$(printf '%s\n' "$prompt" | grep -oE '(MEMBRO|MEMBER) [^ ]+ \((lente|lens): [^)]*\): (AUSENTE|MISSING)' | awk '{ print $2 }')
	h "Pontos de consenso" "Consensus"; t "- O desconto é aplicado duas vezes (evidence/fechamento.log)." "- The discount is applied twice (evidence/fechamento.log)."; printf '\n'
	h "Pontos de divergência" "Divergences"; t "- Quando migrar os pedidos afetados. Natureza: timing. Um lado quer já, o outro depois da correção; impacto: pedidos errados. Crítica: não" "- When to migrate the affected orders. Nature: timing. One side wants it now, the other after the fix; impact: wrong orders. Critical: no"; printf '\n'
	h "Tensões produtivas" "Productive tensions"; t "- correção mínima x correção completa." "- minimal fix vs complete fix."; printf '\n'
	h "Lacunas identificadas" "Gaps"
	for m in $missing; do t "- Membro $m: ausente" "- Member $m: missing"; done
	t "- quantos pedidos fechados foram afetados." "- how many closed orders were affected."; printf '\n'
	h "Confiança da síntese" "Synthesis confidence"; t "80 %: a causa é clara." "80 %: the cause is clear."
}

case "$prompt" in *"(council)"* | *"of a council"*) council=1 ;; *) council=0 ;; esac
[ "$council" = 1 ] && [ "$role" = synthesizer ] && role=council-synthesizer

persona_body() { # an argue persona: its confidence rises a little each round
	conf=$(awk -v r="$round" -v i="${id##*-}" 'BEGIN { c = 0.5 + 0.05 * r + 0.05 * i; if (c > 0.95) c = 0.95; printf "%.2f", c }')
	h "Argumento" "Argument"; t "Rodada $round: $idea (evidence/fechamento.log)." "Round $round: $idea (evidence/fechamento.log)."; printf '\n'
	h "Réplica" "Rebuttal"; t "O outro lado não explica os dois eventos de desconto do log." "The other side does not explain the log's two discount events."; printf '\n'
	h "Concessões" "Concessions"; t "Rodada $round: a ordem dos recálculos também importa." "Round $round: the order of the recalculations matters too."; printf '\n'
	h "Confiança" "Confidence"; printf '%s\n\n' "$conf"
	h "O que mudaria minha opinião" "What would change my mind"; t "Um log com um só evento de desconto e o total errado." "A log with one discount event and a wrong total."
}

scorer_body() { # argue's scorer: one JSON object over the prompt's labels
	labels=$(printf '%s\n' "$prompt" | sed -n 's/^\(Rótulos desta rodada\|Labels of this round\): //p' | head -n 1 | tr -d ' ')
	printf '{"scores": {'
	sep=""
	for l in $(printf '%s' "$labels" | tr ',' ' '); do
		printf '%s"%s": {"evidence": 7, "novelty": 6, "concession": 7, "coherence": 8, "rebuttal": 6, "calibration": 7}' "$sep" "$l"
		sep=", "
	done
	printf '}, "new_arguments": true}\n'
}

argue_synthesis() { # argue's synthesizer: the eight sections
	h "Participantes" "Participants"; t "- as personas do debate, por nome" "- the debate's personas, by name"; printf '\n'
	h "Rodadas e término" "Rounds and termination"; t "Como o prompt diz." "As the prompt says."; printf '\n'
	h "Pontos de concordância" "Agreement"; t "1. O desconto é aplicado duas vezes." "1. The discount is applied twice."; printf '\n'
	h "Pontos de desacordo genuíno" "Genuine disagreement"; t "1. Se a causa é a ordem dos recálculos." "1. Whether the order of recalculations is the cause."; printf '\n'
	h "Registro de concessões" "Concession log"; t "- Rodada 1: ambos concederam que a ordem importa." "- Round 1: both conceded the order matters."; printf '\n'
	h "Argumentos mais fortes" "Strongest arguments"; t "1. [agente-1, rodada 1] os dois eventos do log." "1. [agente-1, round 1] the log's two events."; printf '\n'
	h "Perguntas em aberto" "Open questions"; t "1. A taxa de 7/10 vem da corrida?" "1. Does the 7-in-10 rate come from the race?"; printf '\n'
	h "Conclusão matizada" "Nuanced conclusion"; t "A reaplicação explica o log; a corrida pode explicar a taxa." "The reapplication explains the log; the race may explain the rate."
}

case "$prompt" in *"(argue)"*)
	case "$role" in
	scorer) scorer_body ;;
	synthesizer) argue_synthesis ;;
	*) persona_body ;;
	esac
	exit 0 ;;
esac

case "$role" in
juror) # a review's juror: one lens (MOOT_LENS), a canned pass that says it read nothing
	printf '{"lens": "%s", "verdict": "pass", "findings": [], "checked": ["nothing: scripted-llm is a canned stand-in and reads no file"]}\n' "${MOOT_LENS:-defect}" ;;
member) member_body ;;
council-synthesizer) council_synthesis ;;
judge) judge_body ;;
critic) critic_body ;;
reviewer) reviewer_body ;;
synthesizer) synthesizer_body ;;
*) solver_body ;;
esac
