package bugfolder_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

// hostSpec holds the headings of the public registers whose locators
// hosts misspell (testdata/registers/README.md names each source): an
// emoji and a dash that GitHub's slug turns into "--", a numbered heading
// with a parenthesis, a heading without the number its locator carries,
// a file without numbered headings that a bare line number names, and a
// number written after an emoji ("### 🪶 2.26 …", harness-config's domain).
const hostSpec = `# Domínio

## 4. Lacunas 🔴 (requerem validação humana)

LACUNAS-TEXT

### 2.1. Relação prevista por faixa de cM 🟢 CONFIRMADO

FAIXA-TEXT

## FL-NP-06 — Native Callback Cleanup

CALLBACK-TEXT

## 4. Usuários e Perfis de Acesso (Personas / RBAC)

RBAC-TEXT

## Regras de Negócio

REGRAS-TEXT

## Outro

line 25 of the file
line 26 of the file

line 28 of the file

## Known Gaps and Open Questions

GAPS-TEXT

## Known Open Issues

ISSUES-TEXT

## ⚡ 7. Regras de Domínio

### 🕊️ 7.23 Aposentadoria do Soft-block do Stop (feature 025)

SOFTBLOCK-TEXT

### 🪶 7.26 Visão Compacta de Decisões — Derivação Dupla (feature 028, MD-0022)

COMPACTA-TEXT
`

// TestLocateWhatHostsWrite: each locator form a host wrote in a public
// register lands on the section it meant, by a rule P names; the exact
// slug still wins over every loose one.
func TestLocateWhatHostsWrite(t *testing.T) {
	tests := []struct {
		name, anchor string
		rule         bugfolder.LocRule
		has, hasNot  string
	}{
		{"one hyphen where the slug has two (emoji dropped)", "4-lacunas-requerem-validação-humana", bugfolder.RuleSlugHyphens, "LACUNAS-TEXT", "CALLBACK-TEXT"},
		{"the double-hyphen slug itself", "4-lacunas--requerem-validação-humana", bugfolder.RuleHeadingSlug, "LACUNAS-TEXT", "CALLBACK-TEXT"},
		{"dotted number and emoji", "21-relação-prevista-por-faixa-de-cm-confirmado", bugfolder.RuleSlugHyphens, "FAIXA-TEXT", "CALLBACK-TEXT"},
		{"a dash dropped", "fl-np-06-native-callback-cleanup", bugfolder.RuleSlugHyphens, "CALLBACK-TEXT", "RBAC-TEXT"},
		{"two hyphens where the slug has one", "regras--de-negócio", bugfolder.RuleSlugHyphens, "REGRAS-TEXT", "RBAC-TEXT"},
		{"a numbered slug shortened", "4-usuarios-e-perfis-de-acesso-rbac", bugfolder.RuleNumberWords, "RBAC-TEXT", "LACUNAS-TEXT"},
		{"a heading that lost its number", "3-regras-de-negócio", bugfolder.RuleSlugNumber, "REGRAS-TEXT", "RBAC-TEXT"},
		{"a bare line number", "26", bugfolder.RuleBareLine, "line 26", "line 28"},
		{"an unnumbered slug that dropped words", "known-gaps", bugfolder.RuleSlugWords, "GAPS-TEXT", "ISSUES-TEXT"},
		{"dropped words on both sides of a kept one", "gaps-questions", bugfolder.RuleSlugWords, "GAPS-TEXT", "ISSUES-TEXT"},
		{"a bare number written after an emoji", "7.26", bugfolder.RuleHeadingNumber, "COMPACTA-TEXT", "SOFTBLOCK-TEXT"},
		{"an emoji and a variation selector before the number", "7.23", bugfolder.RuleHeadingNumber, "SOFTBLOCK-TEXT", "COMPACTA-TEXT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc, ok := bugfolder.Locate(hostSpec, tt.anchor)
			if !ok {
				t.Fatalf("#%s not located", tt.anchor)
			}
			if loc.Rule != tt.rule {
				t.Errorf("rule %s (%s), want %s", loc.Rule, loc.Detail, tt.rule)
			}
			if !strings.Contains(loc.Text, tt.has) || strings.Contains(loc.Text, tt.hasNot) {
				t.Errorf("#%s located the wrong text:\n%s", tt.anchor, loc.Text)
			}
		})
	}
}

// TestLooseSlugsNeverGuess: a numbered anchor whose words the heading
// lacks, a number no heading carries, a blank line, a single word, words
// out of order and words two headings hold stay not found.
func TestLooseSlugsNeverGuess(t *testing.T) {
	for _, anchor := range []string{"4-usuarios-e-clientes", "5-usuarios-e-perfis-de-acesso-rbac", "3-outra-coisa", "27", "900", "known", "gaps-known", "known-open"} {
		if loc, ok := bugfolder.Locate(hostSpec, anchor); ok {
			t.Errorf("#%s located (%s %s):\n%s", anchor, loc.Rule, loc.Detail, loc.Text)
		}
	}
}

// addendumTable is the shape of a public register's addendum
// (testdata/registers/odcs): its impact table names, in a cell, the
// section of another spec it amends, and hosts point at it with that
// section's slug.
const addendumTable = `# Adendo

## Impacto por artefato da extração

| Artefato | Seção | Tipo de impacto | Delta |
|----------|-------|-----------------|-------|
| ` + "`policy-analysis.md`" + ` | §6.1 Requisitos Funcionais | componente-novo | REGRAS-DELTA |
| ` + "`policy-analysis.md`" + ` | §9 Modelo de Dados | delta-de-dados | DADOS-DELTA |
| ` + "`evaluation.md`" + ` | §6.1 Requisitos Funcionais | componente-novo | AVALIACAO-DELTA |

## Fontes
`

// TestLocateTheSectionAnAddendumTableNames: #61-requisitos-funcionais on
// an addendum whose impact table names "§6.1 Requisitos Funcionais" is
// every row naming it, under the table's header; a cell no row holds
// stays not found.
func TestLocateTheSectionAnAddendumTableNames(t *testing.T) {
	loc, ok := bugfolder.Locate(addendumTable, "61-requisitos-funcionais")
	if !ok {
		t.Fatal("#61-requisitos-funcionais not located")
	}
	if loc.Rule != bugfolder.RuleTableCell {
		t.Errorf("rule %s (%s), want %s", loc.Rule, loc.Detail, bugfolder.RuleTableCell)
	}
	for _, want := range []string{"| Artefato | Seção |", "REGRAS-DELTA", "AVALIACAO-DELTA"} {
		if !strings.Contains(loc.Text, want) {
			t.Errorf("located text lacks %q:\n%s", want, loc.Text)
		}
	}
	if strings.Contains(loc.Text, "DADOS-DELTA") {
		t.Errorf("located a row that names another section:\n%s", loc.Text)
	}
	if loc, ok := bugfolder.Locate(addendumTable, "7-requisitos-nao-funcionais"); ok {
		t.Errorf("#7-requisitos-nao-funcionais located (%s):\n%s", loc.Rule, loc.Text)
	}
}

// criteriaList is the shape of a public register's criteria file
// (testdata/registers/fields): its items are named by a bold label, and
// hosts point at one with that label's slug.
const criteriaList = `# Critérios

### A. Interface

- **A6. Relatório:** RELATORIO-TEXT.
- **A7. Configurações:** CONFIG-TEXT, continued
  on a second line.
- **A8. Tratamento de erros:** ERROS-TEXT.
`

// TestLocateAListItemByItsBoldLabel: #A7-configuracoes on a list whose
// item reads "- **A7. Configurações:** …" is that item, its continuation
// line included; a label no item carries stays not found.
func TestLocateAListItemByItsBoldLabel(t *testing.T) {
	loc, ok := bugfolder.Locate(criteriaList, "A7-configuracoes")
	if !ok {
		t.Fatal("#A7-configuracoes not located")
	}
	if loc.Rule != bugfolder.RuleItemLabel {
		t.Errorf("rule %s (%s), want %s", loc.Rule, loc.Detail, bugfolder.RuleItemLabel)
	}
	if !strings.Contains(loc.Text, "CONFIG-TEXT") || !strings.Contains(loc.Text, "on a second line") || strings.Contains(loc.Text, "RELATORIO-TEXT") || strings.Contains(loc.Text, "ERROS-TEXT") {
		t.Errorf("located the wrong text:\n%s", loc.Text)
	}
	if loc, ok := bugfolder.Locate(criteriaList, "A9-seguranca"); ok {
		t.Errorf("#A9-seguranca located (%s):\n%s", loc.Rule, loc.Text)
	}
}

// TestLocateWhatAListItemLabelNames: an anchor that drops a word of a
// plain list item's label (#endpoints-apontamento for "- Endpoints de
// Apontamento (…): …") is that item; words two items hold, or words in
// another order, are never a guess.
func TestLocateWhatAListItemLabelNames(t *testing.T) {
	const permissions = `### RF-03

- Endpoints de Auditoria (` + "`POST /aprovar`" + `): AUDITORIA-TEXT.
- Endpoints de Gestão de Usuários (` + "`/usuarios`" + `): USUARIOS-TEXT.
- Endpoints de Apontamento (` + "`POST /vendas`" + `): APONTAMENTO-TEXT.
`
	loc, ok := bugfolder.Locate(permissions, "endpoints-apontamento")
	if !ok || loc.Rule != bugfolder.RuleItemLabel || !strings.Contains(loc.Text, "APONTAMENTO-TEXT") || strings.Contains(loc.Text, "AUDITORIA-TEXT") {
		t.Fatalf("#endpoints-apontamento: ok %v rule %s:\n%s", ok, loc.Rule, loc.Text)
	}
	for _, anchor := range []string{"endpoints-de", "apontamento-endpoints"} {
		if loc, ok := bugfolder.Locate(permissions, anchor); ok {
			t.Errorf("#%s located (%s):\n%s", anchor, loc.Rule, loc.Text)
		}
	}
}

// TestLocateAHeadingWrittenAsItsText: a locator whose anchor is a
// heading's text with its spaces ("#Impacto por artefato da extração",
// cut at the first space into "#Impacto" and a comment) lands on that
// heading; an anchor found as written keeps its comment a comment.
func TestLocateAHeadingWrittenAsItsText(t *testing.T) {
	const addendum = "# Adendo\n\n## Impacto por artefato da extração\n\nIMPACTO-TEXT\n\n## Requisitos funcionais\n\nRF-TEXT\n"
	for _, tc := range []struct{ raw, has string }{
		{"addenda/009.md#Impacto por artefato da extração", "IMPACTO-TEXT"},
		{"addenda/009.md#requisitos-funcionais (RF-01, impacto)", "RF-TEXT"},
	} {
		loc, ok := bugfolder.LocateLocator(addendum, bugfolder.ParseLocator(tc.raw))
		if !ok || !strings.Contains(loc.Text, tc.has) {
			t.Errorf("%s: ok %v:\n%s", tc.raw, ok, loc.Text)
		}
	}
	if loc, ok := bugfolder.LocateLocator(addendum, bugfolder.ParseLocator("addenda/009.md#Impacto nenhum")); ok {
		t.Errorf("#Impacto nenhum located (%s):\n%s", loc.Rule, loc.Text)
	}
}

// TestSpecNamedByItsNumberAlone: a locator naming a numbered document by
// its number alone (_reversa_sdd/adrs/0028, as hosts cite ADRs) reads the
// one file of that folder carrying the number; a number two files carry
// stays a missing file, never a guess.
func TestSpecNamedByItsNumberAlone(t *testing.T) {
	reg, err := bugfolder.FindRoot(filepath.Join(testutil.RepoRoot(t), "testdata", "registers", "harness"))
	if err != nil {
		t.Fatal(err)
	}
	bugs, errs := bugfolder.Discover(reg)
	if len(errs) > 0 || len(bugs) != 1 {
		t.Fatalf("bugs %d, errors %v", len(bugs), errs)
	}
	p, err := bugfolder.AssembleP(bugs[0])
	if err != nil {
		t.Fatal(err)
	}
	var adr, missing0029 bool
	for _, part := range p.Parts {
		if part.Kind == bugfolder.PartSpec && strings.HasSuffix(part.Path, "0028-visao-compacta-decisoes-resume.md") && strings.Contains(part.Text, "ADR-0028-TEXT") {
			adr = true
		}
		if part.Kind == bugfolder.PartNote && strings.Contains(part.Text, "adrs/0029") {
			missing0029 = true
		}
	}
	if !adr || !missing0029 {
		t.Errorf("ADR 0028 read: %v; 0029 left missing: %v\n%s", adr, missing0029, p.Text)
	}
}
