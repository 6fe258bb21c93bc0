package results

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// The witnesses of results files are given once for many outcomes (a
// --witness flag, a [[results]] table), so a mistake there is reported once,
// where it was made, and not once per outcome at the results file's lines:
// witnessCheck checks each origin's witnesses against the tree before any
// outcome is made, and the outcomes leave out the entries that name no
// implementation (so the graph has no link to report) and are Broken (so
// they count only against their requirements, as outcomes with a link
// that does not resolve would).

// CommandLine is the origin of results files named with --results.
var CommandLine = Origin{
	Name:  "--witness",
	Entry: "--witness %q",
	Short: "name the implementations the tests ran against with --witness ID[,ID...]",
	Hint: "Name the implementations the tests ran against with --witness ID[,ID...] next to --results, " +
		"or give the files in a [[results]] table of seg.toml with witnesses = [\"ID\", ...].",
}

// witnessCheck checks the witnesses of each origin once.
type witnessCheck struct {
	kinds   map[string]parser.Kind // ID -> kind of its first definition
	impls   []string               // implementation IDs, sorted
	origins []*originState
}

type originState struct {
	Origin
	witnesses []string
	good      []string // the witnesses that name an implementation
	bad       []string // and those that do not, each once
	// globs are the entries that are patterns (witnessglob.go): empty
	// those that matched no implementation (they are in bad too).
	globs  map[string]int
	broken bool
	made   int                     // outcomes made with these witnesses
	files  map[string]bool         // the results files given with them
	making map[string]*source.File // those that made outcomes, by path
}

// madeOne counts an outcome made from src.
func (s *originState) madeOne(src *Source) {
	s.made++
	if s.making == nil {
		s.making = map[string]*source.File{}
	}
	s.making[src.Path] = src.File
}

func newWitnessCheck(files []*parser.File, extra []parser.Node) *witnessCheck {
	w := &witnessCheck{kinds: map[string]parser.Kind{}}
	w.addExtra(extra)
	for _, f := range files {
		if f == nil {
			continue
		}
		for i := range f.Nodes {
			w.add(&f.Nodes[i])
		}
	}
	sort.Strings(w.impls)
	return w
}

// origin is the state of src's origin, made and checked at its first
// source.
func (w *witnessCheck) origin(src Source) *originState {
	o := src.Origin
	if o.Name == "" {
		o = CommandLine
	}
	for _, s := range w.origins {
		if s.Origin == o && slicesEqual(s.witnesses, src.Witnesses) {
			s.files[src.Path] = true
			return s
		}
	}
	s := &originState{Origin: o, witnesses: src.Witnesses, files: map[string]bool{src.Path: true}}
	seen := map[string]bool{}
	for _, id := range src.Witnesses {
		if seen[id] {
			continue
		}
		seen[id] = true
		if w.glob(s, id, seen) {
			continue
		}
		if k, ok := w.kinds[id]; ok && k == parser.Implementation {
			s.good = append(s.good, id)
		} else {
			s.bad = append(s.bad, id)
		}
	}
	s.broken = len(s.bad) > 0
	w.origins = append(w.origins, s)
	return s
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// diagnostics are one invalid-witness error per bad entry of an origin,
// and one unwitnessed-results warning for the origins that gave no
// witnesses and made outcomes.
func (w *witnessCheck) diagnostics() diag.List {
	var out diag.List
	var bare []*originState
	for _, s := range w.origins {
		for _, id := range s.bad {
			out = append(out, w.invalid(s, id))
		}
		if len(s.witnesses) == 0 && s.made > 0 {
			bare = append(bare, s)
		}
	}
	if len(bare) == 0 {
		return out
	}
	made := 0
	var files []string
	var hints []string
	making := map[string]*source.File{}
	for _, s := range bare {
		made += s.made
		for f, sf := range s.making {
			files = append(files, f)
			making[f] = sf
		}
		if !slices.Contains(hints, s.Hint) {
			hints = append(hints, s.Hint)
		}
	}
	sort.Strings(files)
	what := files[0]
	if len(files) > 1 {
		what = fmt.Sprintf("%s and %d more results files", files[0], len(files)-1)
	}
	msg := fmt.Sprintf("%d outcomes from %s witness no implementation, so none of them counts", made, what)
	if made == 1 {
		msg = fmt.Sprintf("1 outcome from %s witnesses no implementation, so it does not count", what)
	}
	var short []string
	for _, s := range bare {
		if !slices.Contains(short, s.Short) {
			short = append(short, s.Short)
		}
	}
	msg += " (" + strings.Join(short, "; ") + ")"
	var at source.Span
	if f := making[files[0]]; f != nil {
		at = source.At(f.Whole())
	}
	out = append(out, diag.Diagnostic{
		Code:    CodeUnwitnessedResults,
		Message: msg,
		Detail: "An outcome is evidence only when it names the implementation it ran against. " +
			strings.Join(hints, " "),
		Span: at,
	})
	return out
}

func (w *witnessCheck) invalid(s *originState, id string) diag.Diagnostic {
	var msg string
	if _, glob := s.globs[id]; glob {
		msg = fmt.Sprintf(s.Entry+" is a pattern that matches no implementation", id)
	} else if k, ok := w.kinds[id]; ok {
		msg = fmt.Sprintf(s.Entry+" names %s %s, not an implementation", id, article(k), k)
	} else {
		msg = fmt.Sprintf(s.Entry+" names no implementation", id)
		if best := diag.Closest(id, w.impls); best != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", best)
		}
	}
	files := make([]string, 0, len(s.files))
	for f := range s.files {
		files = append(files, f)
	}
	sort.Strings(files)
	detail := fmt.Sprintf("Every outcome made from %s witnesses the implementations %s names. "+
		"This entry names none, so those outcomes count only against their requirements until it is corrected.",
		strings.Join(files, ", "), s.Name)
	if len(w.impls) > 0 && len(w.impls) <= 10 {
		detail += " The implementations of the tree: " + strings.Join(w.impls, ", ") + "."
	}
	return diag.Diagnostic{Code: CodeInvalidWitness, Message: msg, Detail: detail, Span: source.At(s.Pos)}
}

func article(k parser.Kind) string {
	switch k.String()[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an"
	}
	return "a"
}
