// Package layers holds the test that keeps moot's packages importing one
// way (DESIGN §1): main → cli → tui → engine → {harness, bugfolder};
// protocol/* → engine; harness knows no bug folder, bugfolder no LLM.
package layers
