package bugfolder

// EffectiveSpec returns the effective spec P assembles for the bug: the
// sections its traceability.specs locates and its active addenda (parts
// of kind PartSpec and PartAddendum only, as AssembleP reads them: the
// same locators, links refused, restricted addenda left out). A review's
// contract on a bug is built from what must be true, never from what the
// bug observed.
func EffectiveSpec(b *Bug) ([]Part, error) {
	if b.Incomplete {
		return nil, b.Warnings[0]
	}
	parts, err := locateSpecs(b)
	if err != nil {
		return nil, err
	}
	var out []Part
	for _, p := range parts {
		if p.Kind == PartSpec || p.Kind == PartAddendum {
			out = append(out, p)
		}
	}
	return out, nil
}
