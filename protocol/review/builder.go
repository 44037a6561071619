package review

import (
	"fmt"
	"github.com/reversa/moot/engine"
	"slices"
	"strings"

	"github.com/reversa/moot/bugfolder/envelope"
)

// UnknownBuilder is what the user says when no one knows who built the
// change (--builder unknown): recorded, and the gate is labelled weakened.
const UnknownBuilder = "unknown"

// BuilderSource says where a review learnt who built its change.
type BuilderSource string

// Where a builder may come from, in the order they are asked.
const (
	FromFlag     BuilderSource = "--builder"
	FromTrailers BuilderSource = "the change's commit trailers"
	FromConfig   BuilderSource = "the engines file's review.builder"
)

// BuilderInput is what tells a review who built its change.
type BuilderInput struct {
	Config *engine.Config
	// Flag is --builder ("" when not given).
	Flag string
	// Trailers are the values of the change's builder trailers
	// (envelope.BuilderTrailers).
	Trailers []string
}

// ResolveBuilder says who built the change: --builder (an engine, a
// model's name, a family, or "unknown"), else the change's own trailers
// when they name a known engine, model or family (one builder: trailers
// naming two families, or a family other than review.builder's, are no
// answer: the builder may write its own trailers), else the engines file's
// review.builder. With none of these it is an error (exit 2 before any
// call): a review always knows whom to exclude, or the user says so.
func ResolveBuilder(in BuilderInput) (string, BuilderSource, error) {
	cfg := in.Config
	if flag := strings.TrimSpace(in.Flag); flag != "" {
		if strings.EqualFold(flag, UnknownBuilder) {
			return UnknownBuilder, FromFlag, nil
		}
		if err := CheckBuilder(cfg, flag); err != nil {
			return "", FromFlag, err
		}
		return flag, FromFlag, nil
	}
	named, fams := TrailerBuilders(cfg, in.Trailers)
	switch {
	case len(fams) > 1:
		return "", FromTrailers, fmt.Errorf("the change's commit trailers name builders of several families (%s): say which built it with --builder (an engine, model or family)", strings.Join(named, ", "))
	case len(named) > 0 && cfg.Review.Builder != "" && !sameBuilder(cfg, cfg.Review.Builder, named[0]):
		return "", FromTrailers, fmt.Errorf("the change's commit trailers name %s (family %s), but review.builder in %s says %s (family %s): a trailer may be written by the builder itself, so neither is taken; say which built it with --builder (an engine, model or family)",
			named[0], BuilderFamily(cfg, named[0]), configLabel(cfg), cfg.Review.Builder, BuilderFamily(cfg, cfg.Review.Builder))
	case len(named) > 0:
		return named[0], FromTrailers, nil
	case cfg.Review.Builder != "":
		return cfg.Review.Builder, FromConfig, nil
	}
	return "", "", fmt.Errorf("no builder: a review must know who built the change to keep that engine and its family off the panel; say --builder ENGINE|MODEL|FAMILY (known families: %s; engines: %s), set review.builder in %s, or say --builder unknown to review with the gate labelled weakened",
		strings.Join(knownFamilies(cfg), ", "), strings.Join(cfg.Order, ", "), configLabel(cfg))
}

// sameBuilder reports whether two builders name the same family (an
// engine of unknown family is a family of its own: its name).
func sameBuilder(cfg *engine.Config, a, b string) bool {
	return strings.EqualFold(BuilderFamily(cfg, a), BuilderFamily(cfg, b))
}

// configLabel names the engines file in a message.
func configLabel(cfg *engine.Config) string {
	if cfg.Path == "" {
		return "your engines file"
	}
	return cfg.Path
}

// TrailerBuilders reads the trailers' values for a builder: a word that is
// an engine of cfg, a family, or a model's name (engine.ModelWord), or
// an email's domain naming a family. It returns the names found and their
// families, once each; a person's name names no one.
func TrailerBuilders(cfg *engine.Config, values []string) (named, families []string) {
	for _, v := range values {
		for _, w := range envelope.TrailerWords(v) {
			fam := ""
			switch {
			case cfg.Engines[w] != nil:
				fam = BuilderFamily(cfg, w)
			case engine.ModelWord(w) != "":
				fam = engine.ModelWord(w)
			default:
				continue
			}
			if !slices.Contains(named, w) {
				named = append(named, w)
			}
			if !slices.Contains(families, fam) {
				families = append(families, fam)
			}
		}
	}
	return named, families
}

// BuilderUnknown reports a review whose user said --builder unknown.
func BuilderUnknown(st *State) bool { return strings.EqualFold(st.Builder, UnknownBuilder) }

// UnknownBuilderNote is what every report of such a review says.
const UnknownBuilderNote = "builder unknown (--builder unknown): no engine or family could be excluded, so no seat proves a cross-family review"

// unrecordedBuilderNote is what a resumed review whose record names no
// builder (one started before the builder was required) says.
const unrecordedBuilderNote = "no builder recorded: no engine or family was excluded, so no seat proves a cross-family review"

// WeakenedNote says why a round's gate is weakened, "" when it is not:
// the builder is unknown; a seat or verifier of unknown family sat (only
// --solo lets one); or every seat is of one family (PanelNote).
func WeakenedNote(st *State, seats []Seat) string {
	var notes []string
	switch {
	case BuilderUnknown(st):
		notes = append(notes, UnknownBuilderNote)
	case st.Builder == "" && st.BuilderFamily == "":
		notes = append(notes, unrecordedBuilderNote)
	}
	var unknown []string
	for _, s := range seats {
		if s.Lens == MootLens || s.Engine == "" {
			continue
		}
		for _, a := range s.Attempts {
			if (a.Status == StatusSat || a.Status == StatusVerifier) && a.Family == "" && !slices.Contains(unknown, a.Engine) {
				unknown = append(unknown, a.Engine)
			}
		}
	}
	if len(unknown) > 0 {
		notes = append(notes, fmt.Sprintf("%s of unknown family sat by --solo: no proof of a cross-family review", strings.Join(unknown, ", ")))
	}
	if n := sameFamilyNote(st, seats); n != "" {
		notes = append(notes, n)
	}
	return strings.Join(notes, "; ")
}
