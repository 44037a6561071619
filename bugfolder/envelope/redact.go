package envelope

// Redact passes every text a juror reads through replace (a redactor of
// secret values: the envelope knows no secret itself) — the contract, the
// context parts, each file's body and the test checks — and returns where
// replace changed something, as Scan names them ("(contract)",
// "(context: Title)", a file's path, "(test checks)"), in that order.
func (e *Envelope) Redact(replace func(string) string) []string {
	var where []string
	swap := func(s *string, name string) {
		if r := replace(*s); r != *s {
			*s = r
			if len(where) == 0 || where[len(where)-1] != name {
				where = append(where, name)
			}
		}
	}
	swap(&e.Contract.Intent, "(contract)")
	swap(&e.Contract.Criteria, "(contract)")
	for i := range e.Context {
		name := "(context: " + e.Context[i].Title + ")"
		swap(&e.Context[i].Title, name)
		swap(&e.Context[i].Body, name)
	}
	for i := range e.Files {
		swap(&e.Files[i].Body, e.Files[i].Path)
	}
	for i := range e.Tests {
		swap(&e.Tests[i].Detail, "(test checks)")
	}
	return where
}
