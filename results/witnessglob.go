package results

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seg-trace/seg/parser"
)

// Witnesses may be patterns over implementation IDs (docs/results.md,
// "Witness patterns"): "*" is every implementation of the tree (the run
// built the whole commit), "src/brake/*" every implementation made from a
// code tag under src/brake, "IMPL-BRK-*" a family of written ones. The
// wildcards are those of :cases: (Match): '*' crosses '/', '.' and ':'.
// An entry equal to an implementation's ID names that implementation even
// when it holds a wildcard character. A pattern that matches no
// implementation is an invalid-witness error, as an ID that names none
// is: an outcome is evidence only of what it ran against.

// addExtra counts the nodes made outside the parsed files (code tags).
func (w *witnessCheck) addExtra(extra []parser.Node) {
	for i := range extra {
		w.add(&extra[i])
	}
}

// add counts node n: the first node of an ID gives its kind, and an
// implementation is one a pattern may match.
func (w *witnessCheck) add(n *parser.Node) {
	if n.ID == "" {
		return
	}
	if _, dup := w.kinds[n.ID]; !dup {
		w.kinds[n.ID] = n.Kind
		if n.Kind == parser.Implementation {
			w.impls = append(w.impls, n.ID)
		}
	}
}

// glob reads a witness entry id of s that is a pattern: it adds the
// implementations it matches to s.good (each once), or id to s.bad when it
// matches none. It reports whether id was a pattern.
func (w *witnessCheck) glob(s *originState, id string, seen map[string]bool) bool {
	if !hasMeta(id) {
		return false
	}
	if k, ok := w.kinds[id]; ok && k == parser.Implementation {
		return false
	}
	if s.globs == nil {
		s.globs = map[string]int{}
	}
	n := 0
	for _, impl := range w.impls {
		if Match(id, impl) {
			n++
			if !slices.Contains(s.good, impl) {
				s.good = append(s.good, impl)
			}
		}
	}
	s.globs[id] = n
	if n == 0 {
		s.bad = append(s.bad, id)
	}
	return true
}

// OptionWitnessPatterns is the option of an outcome made from a results
// file whose witnesses were given as patterns: the entries as given, each
// pattern with where it was given and the number of implementations it
// matched, so that an explanation names the pattern and not only the
// implementations it stands for. It is not a link: the witnesses option
// holds the implementations.
const OptionWitnessPatterns = "witness-patterns"

// annotate adds OptionWitnessPatterns to an outcome of s when a pattern
// gave some of its witnesses.
func (s *originState) annotate(n *parser.Node) {
	if len(s.globs) == 0 {
		return
	}
	var parts []string
	for _, e := range s.witnesses {
		if k, ok := s.globs[e]; ok {
			what := "implementations"
			if k == 1 {
				what = "implementation"
			}
			parts = append(parts, fmt.Sprintf("%q (%s, %d %s)", e, s.Name, k, what))
		} else if slices.Contains(s.good, e) {
			parts = append(parts, fmt.Sprintf("%q", e))
		}
	}
	parts = slices.Compact(parts)
	n.Options = append(n.Options, parser.Option{Name: OptionWitnessPatterns, Value: strings.Join(parts, ", "), Pos: n.Pos, ValuePos: n.Pos})
}
