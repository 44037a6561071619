// Package layers holds the tests that keep moot's packages importing one
// way (docs/architecture.md): main → cli → tui → engine → {harness, bugfolder};
// protocol/* → engine; tui knows no protocol/*; harness knows no bug
// folder, bugfolder no LLM — and the tests that keep the repository readable
// on its own (carryon_test.go): comments cite docs/…, names carry no ticket
// numbers, no machine path in docs or test data, the docs/ pages present.
package layers
