// Package layers holds the test that keeps moot's packages importing one
// way (docs/architecture.md): main → cli → tui → engine → {harness, bugfolder};
// protocol/* → engine; tui knows no protocol/*; harness knows no bug
// folder, bugfolder no LLM.
package layers
