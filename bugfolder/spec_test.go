package bugfolder_test

import (
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

const specDoc = `# Requisitos do checkout

## 1. Visão geral

Texto da visão geral.

## 2. Requisitos funcionais {#requisitos}

| ID | Requisito | Prioridade |
|----|-----------|------------|
| RF-05 | Exibir o subtotal | alta |
| RF-06 | Aplicar um único desconto (ver RF-05) | alta |

- **T006** — Testar o desconto com cupom expirado
  continuação do item T006
- T007 — outro teste

Um parágrafo que define RNF-3: o fechamento leva menos de 2 s
e nunca bloqueia o carrinho.

### 2.1 Cupons

Regras de cupom.

## Regras de desconto

Desconto único.

` + "```" + `
RF-09 dentro de um bloco de código não conta
` + "```" + `

## 3. Frete

Frete grátis acima de R$ 200.
`

func TestLocateEveryForm(t *testing.T) {
	tests := []struct {
		name, anchor string
		rule         bugfolder.LocRule
		detail       string
		has, hasNot  []string
		start, end   int
	}{
		{"no anchor is the whole file", "", bugfolder.RuleWholeFile, "", []string{"# Requisitos do checkout", "Frete grátis"}, nil, 1, 35},
		{"heading slug", "regras-de-desconto", bugfolder.RuleHeadingSlug, "heading “Regras de desconto”", []string{"Desconto único", "RF-09"}, []string{"Frete"}, 25, 31},
		{"heading slug with accents dropped", "1-visao-geral", bugfolder.RuleHeadingSlug, "", []string{"Texto da visão geral"}, []string{"RF-05"}, 3, 5},
		{"explicit id", "requisitos", bugfolder.RuleExplicitID, "heading {#requisitos}", []string{"RF-06", "### 2.1 Cupons"}, []string{"Regras de desconto"}, 7, 23},
		{"GitHub line anchor", "L3", bugfolder.RuleLineRange, "line 3", []string{"## 1. Visão geral"}, []string{"Texto"}, 3, 3},
		{"GitHub line range", "L9-L12", bugfolder.RuleLineRange, "lines 9–12", []string{"| ID |", "RF-06"}, []string{"T006"}, 9, 12},
		{"line range past the end stops at the end", "L34-L99", bugfolder.RuleLineRange, "lines 34–35", []string{"Frete grátis"}, nil, 34, 35},
		{"bare number", "3", bugfolder.RuleHeadingNumber, "heading “3. Frete”", []string{"Frete grátis"}, []string{"Desconto"}, 33, 35},
		{"bare dotted number", "2.1", bugfolder.RuleHeadingNumber, "", []string{"Regras de cupom"}, []string{"RF-06"}, 21, 23},
		{"table row with its header", "RF-06", bugfolder.RuleRequirementID, "table row", []string{"| ID | Requisito", "|----|", "| RF-06 |"}, []string{"RF-05 | Exibir"}, 9, 12},
		{"table row any case", "rf-05", bugfolder.RuleRequirementID, "table row", []string{"| RF-05 | Exibir"}, []string{"RF-06 |"}, 9, 11},
		{"list item with continuation", "T006", bugfolder.RuleRequirementID, "list item", []string{"**T006**", "continuação"}, []string{"T007"}, 14, 15},
		{"paragraph holding the ID", "RNF-3", bugfolder.RuleRequirementID, "paragraph", []string{"RNF-3:", "nunca bloqueia"}, []string{"T007"}, 18, 19},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc, ok := bugfolder.Locate(specDoc, tt.anchor)
			if !ok {
				t.Fatalf("#%s not located", tt.anchor)
			}
			if loc.Rule != tt.rule || (tt.detail != "" && loc.Detail != tt.detail) {
				t.Errorf("rule %s (%s), want %s (%s)", loc.Rule, loc.Detail, tt.rule, tt.detail)
			}
			for _, s := range tt.has {
				if !strings.Contains(loc.Text, s) {
					t.Errorf("located text lacks %q:\n%s", s, loc.Text)
				}
			}
			for _, s := range tt.hasNot {
				if strings.Contains(loc.Text, s) {
					t.Errorf("located text holds %q:\n%s", s, loc.Text)
				}
			}
			if loc.Start != tt.start || loc.End != tt.end {
				t.Errorf("lines %d–%d, want %d–%d", loc.Start, loc.End, tt.start, tt.end)
			}
		})
	}
}

func TestLocateMisses(t *testing.T) {
	for _, anchor := range []string{"nao-existe", "L999", "99", "RF-09", "RF-0", "RF-066", "4-frete", "3-frete-gratis-sempre"} {
		if loc, ok := bugfolder.Locate(specDoc, anchor); ok {
			t.Errorf("#%s located (%s %s):\n%s", anchor, loc.Rule, loc.Detail, loc.Text)
		}
	}
}

func TestParseLocator(t *testing.T) {
	tests := []struct{ raw, path, anchor, comment string }{
		{"req.md#requisitos-funcionais (RF-01 … RF-08)", "req.md", "requisitos-funcionais", "(RF-01 … RF-08)"},
		{"  sdd/x.md#RF-06  ", "sdd/x.md", "RF-06", ""},
		{"SKILL.md#L120", "SKILL.md", "L120", ""},
		{"index.html#L288-L308 — o laço", "index.html", "L288-L308", "— o laço"},
		{"docs/a.md", "docs/a.md", "", ""},
		{"docs/a.md (seção inteira)", "docs/a.md", "", "(seção inteira)"},
		{"#2", "", "2", ""},
		{"a.md##dupla", "a.md", "dupla", ""},
		{"a.md#x\tcomentário", "a.md", "x", "comentário"},
		{"/docs/req.md#requisitos-n%C3%A3o-funcionais", "/docs/req.md", "requisitos-não-funcionais", ""},
		{"req.md#user-content-rf-06", "req.md", "rf-06", ""},
	}
	for _, tt := range tests {
		l := bugfolder.ParseLocator(tt.raw)
		if l.Path != tt.path || l.Anchor != tt.anchor || l.Comment != tt.comment {
			t.Errorf("ParseLocator(%q) = %q %q %q, want %q %q %q", tt.raw, l.Path, l.Anchor, l.Comment, tt.path, tt.anchor, tt.comment)
		}
	}
}

// FuzzLocate feeds arbitrary locators and spec texts to the locator: it
// must never panic, and what it locates is always text of the file, on the
// lines it names.
func FuzzLocate(f *testing.F) {
	f.Add(specDoc, "req.md#RF-06")
	f.Add(specDoc, "x.md#L9-L12")
	f.Add(specDoc, "x.md#2.1 (cupons)")
	f.Add("# a\n## b\n", "a.md#L0-L1")
	f.Add("| x |\n", "#x1")
	f.Add("---\na: b\n---\nLimits\n------\n\n<a id=\"z\"></a>\n## Z {#q .c}\n{: #k}\n", "a.md#RF-06 #RF-07")
	f.Add("Limits\n======\nx\n", "a.md#L1C2-L2C3,RF-1:")
	f.Add("## 4. Lacunas 🔴 (requerem validação humana)\n", "d.md#4-lacunas-requerem-validação-humana")
	f.Add("## 4. Usuários e Perfis (Personas / RBAC)\n", "d.md#4-usuarios-e-perfis-rbac")
	f.Add("## Regras de Negócio\n", "r.md#3-regras-de-negócio (RN-H)")
	f.Add("a\nb\n\nc\n", "SKILL.md#2")
	f.Add("## 1.2 -- x\n", "a.md#1--2---x-")
	f.Add("### 🕊️ 2.23 Soft-block\n### 🪶 2.26 Visão\n", "d.md#2.26 (RN-N56)")
	f.Fuzz(func(t *testing.T, text, raw string) {
		l := bugfolder.ParseLocator(raw)
		if strings.ContainsAny(l.Anchor, " \t\n") {
			t.Fatalf("anchor %q keeps white space", l.Anchor)
		}
		text = bugfolder.NormalizeText([]byte(text))
		loc, ok := bugfolder.Locate(text, l.Anchor)
		if !ok {
			return
		}
		if loc.Start < 1 || loc.End < loc.Start-1 {
			t.Fatalf("lines %d–%d", loc.Start, loc.End)
		}
		lines := strings.Split(text, "\n")
		for _, ln := range strings.Split(strings.TrimRight(loc.Text, "\n"), "\n") {
			if ln != "" && !strings.Contains(text, ln) {
				t.Fatalf("located line %q is not in the file", ln)
			}
		}
		if loc.Start > len(lines) {
			t.Fatalf("starts at line %d of %d", loc.Start, len(lines))
		}
	})
}

func TestLocateRequirementIDInAHeading(t *testing.T) {
	doc := "# Reqs\n\nSee RF-06 below.\n\n### RF-06 — Export every row\n\nAll pages.\n\n### RF-07 — Labels\n\nx\n"
	loc, ok := bugfolder.Locate(doc, "RF-06")
	if !ok || loc.Rule != bugfolder.RuleRequirementID || loc.Text != "### RF-06 — Export every row\n\nAll pages.\n" || loc.Start != 5 || loc.End != 7 {
		t.Errorf("%v %+v", ok, loc)
	}
}
