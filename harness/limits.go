package harness

// Limits are the figures the planner needs about an engine's model: its
// context window, its default answer size and its price. Zero or nil means
// unknown.
type Limits struct {
	ContextTokens   int
	MaxOutputTokens int
	Price           *Price
	// Source says where the figures come from ("engines file", "catwalk", …).
	Source string
}

// LimitsOf returns what is known about an engine: the engines file's
// figures first, then the model catalogue for whatever the file leaves out.
func LimitsOf(e *EngineConfig) Limits {
	l := Limits{ContextTokens: e.ContextTokens, MaxOutputTokens: e.MaxOutputTokens, Price: e.Price}
	if l.ContextTokens > 0 || l.Price != nil || l.MaxOutputTokens > 0 {
		l.Source = "engines file"
	}
	if e.Kind == KindReplay || e.Kind == KindCommand {
		if l.Price == nil && e.Kind == KindReplay {
			l.Price = &Price{} // a replay costs nothing
		}
		return l
	}
	if cat, ok := catalogLookup(e); ok {
		if l.ContextTokens == 0 {
			l.ContextTokens = cat.ContextTokens
		}
		if l.MaxOutputTokens == 0 {
			l.MaxOutputTokens = cat.MaxOutputTokens
		}
		if l.Price == nil {
			l.Price = cat.Price
		}
		if l.Source == "" {
			l.Source = cat.Source
		} else {
			l.Source += " + " + cat.Source
		}
	}
	return l
}
