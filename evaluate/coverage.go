package evaluate

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/graph"
)

// Coverage is how much of a tree's requirements its evidence covers, per
// requirement type (the directive, or the need type, that wrote each) and
// over all of them: the figures the matrix shows, seg check --format json
// carries and --min-coverage gates on (docs/check.md). It is worked out
// from the verdicts and their tallies, so it says what the verdicts say:
// a link that is stale, unreviewed, suspect or retired makes no
// requirement implemented or verified.
type Coverage struct {
	// All is the coverage of every requirement counted.
	All TypeCoverage
	// ByType is the coverage of each type's, by type name.
	ByType []TypeCoverage
	// Tests are the test specifications of the tree. TestsLinked counts
	// those that verify at least one requirement (an edge, in any state);
	// BrokenReferences their link entries that name no node, or a node
	// of the wrong kind (S-CORE's broken test references).
	Tests, TestsLinked, BrokenReferences int
}

// TypeCoverage is the coverage of the requirements of one type ("" in
// Coverage.All).
type TypeCoverage struct {
	Type string
	// Requirements counts them, Satisfied those satisfied.
	Requirements, Satisfied int
	// Leaves counts the leaves among them; Implemented, Verified and
	// Both the leaves with an active implements edge, an active verifies
	// edge, and both (the first two clauses of the leaf rule).
	Leaves, Implemented, Verified, Both int
	// Code, Test and FullyLinked count the requirements (leaves or not)
	// with an implements edge, a verifies edge, and both, in whatever
	// state they were written or stand: the links S-CORE's traceability
	// gate counts (with_code_link, with_test_link, fully_linked).
	Code, Test, FullyLinked int
	// TestsLinked counts the test specifications that verify at least
	// one requirement of this type (in All, of any type).
	TestsLinked int
}

// Coverage works out the coverage of the requirements of g for which
// counts returns true (every requirement when counts is nil): a check
// that shows part of a tree counts that part.
func (r *Result) Coverage(g *graph.Graph, counts func(*graph.Node) bool) Coverage {
	var cv Coverage
	byType := map[string]*TypeCoverage{}
	for i := range r.Verdicts {
		v := &r.Verdicts[i]
		n := r.VerdictNode(g, i)
		if n == nil || counts != nil && !counts(n) {
			continue
		}
		tc := byType[n.Directive()]
		if tc == nil {
			tc = &TypeCoverage{Type: n.Directive()}
			byType[n.Directive()] = tc
		}
		tc.add(v)
		cv.All.add(v)
	}
	var types []string // reused from test to test
	for t := range g.Nodes() {
		if t.Kind() != testKind {
			continue
		}
		if counts != nil && !counts(t) {
			continue
		}
		cv.Tests++
		types = types[:0]
		for e := range g.Out(t, graph.Verifies) {
			if to := g.To(e); counts == nil || counts(to) {
				types = append(types, to.Directive())
			}
		}
		if len(types) > 0 {
			cv.TestsLinked++
			cv.All.TestsLinked++
		}
		slices.Sort(types)
		for _, ty := range slices.Compact(types) {
			if tc := byType[ty]; tc != nil {
				tc.TestsLinked++
			}
		}
	}
	for o := range g.OpenLinks() {
		if from := g.OpenFrom(o); from.Kind() == testKind && (counts == nil || counts(from)) {
			switch o.Reason() {
			case graph.Unresolved, graph.WrongKind, graph.Dangling:
				cv.BrokenReferences++
			}
		}
	}
	cv.ByType = make([]TypeCoverage, 0, len(byType))
	for _, tc := range byType {
		cv.ByType = append(cv.ByType, *tc)
	}
	slices.SortFunc(cv.ByType, func(a, b TypeCoverage) int { return strings.Compare(a.Type, b.Type) })
	return cv
}

func (tc *TypeCoverage) add(v *Verdict) {
	tc.Requirements++
	if v.Satisfied {
		tc.Satisfied++
	}
	t := &v.Tally
	if v.Leaf {
		tc.Leaves++
		if t.ActiveImplements {
			tc.Implemented++
		}
		if t.ActiveVerifies {
			tc.Verified++
		}
		if t.ActiveImplements && t.ActiveVerifies {
			tc.Both++
		}
	}
	code, test := len(v.Implements) > 0, len(v.Verifies) > 0
	if code {
		tc.Code++
	}
	if test {
		tc.Test++
	}
	if code && test {
		tc.FullyLinked++
	}
}

// Measure is one coverage figure a threshold gates on (docs/check.md).
type Measure uint8

const (
	// MeasureSatisfied: satisfied requirements / requirements.
	MeasureSatisfied Measure = iota + 1
	// MeasureImplemented: leaves with an active implements edge / leaves.
	MeasureImplemented
	// MeasureVerified: leaves with an active verifies edge / leaves.
	MeasureVerified
	// MeasureCode: requirements with an implements edge / requirements
	// (S-CORE's requirements with code links).
	MeasureCode
	// MeasureTest: requirements with a verifies edge / requirements
	// (S-CORE's requirements with test links).
	MeasureTest
	// MeasureFullyLinked: requirements with both / requirements.
	MeasureFullyLinked
	// MeasureTestsLinked: test specifications that verify a requirement
	// (of the type, for a type's) / test specifications.
	MeasureTestsLinked
)

var measureNames = [...]string{MeasureSatisfied: "satisfied", MeasureImplemented: "implemented", MeasureVerified: "verified",
	MeasureCode: "code", MeasureTest: "test", MeasureFullyLinked: "fully-linked", MeasureTestsLinked: "tests-linked"}

func (m Measure) String() string {
	if int(m) < len(measureNames) && measureNames[m] != "" {
		return measureNames[m]
	}
	return "unknown"
}

// MeasureNames are the measures' names, in order.
func MeasureNames() []string { return append([]string(nil), measureNames[1:]...) }

// of says what a measure counts, in words: "leaves verified".
func (m Measure) of() string {
	switch m {
	case MeasureSatisfied:
		return "requirements satisfied"
	case MeasureImplemented:
		return "leaves implemented"
	case MeasureVerified:
		return "leaves verified"
	case MeasureCode:
		return "requirements with an implements edge"
	case MeasureTest:
		return "requirements with a verifies edge"
	case MeasureFullyLinked:
		return "requirements with both edges"
	case MeasureTestsLinked:
		return "test specifications linked to requirements"
	}
	return ""
}

// Figure is measure m of the requirements of type typ ("" for all):
// count out of total. ok is false when no requirement of the type is
// counted.
func (cv Coverage) Figure(typ string, m Measure) (count, total int, ok bool) {
	tc := cv.All
	if typ != "" {
		i := slices.IndexFunc(cv.ByType, func(t TypeCoverage) bool { return t.Type == typ })
		if i < 0 {
			return 0, 0, false
		}
		tc = cv.ByType[i]
	}
	switch m {
	case MeasureSatisfied:
		return tc.Satisfied, tc.Requirements, true
	case MeasureImplemented:
		return tc.Implemented, tc.Leaves, true
	case MeasureVerified:
		return tc.Verified, tc.Leaves, true
	case MeasureCode:
		return tc.Code, tc.Requirements, true
	case MeasureTest:
		return tc.Test, tc.Requirements, true
	case MeasureFullyLinked:
		return tc.FullyLinked, tc.Requirements, true
	case MeasureTestsLinked:
		return tc.TestsLinked, cv.Tests, true
	}
	return 0, 0, false
}

// Threshold is one --min-coverage entry: measure Measure of the
// requirements of Type ("" for all of them) must reach Percent.
type Threshold struct {
	Type    string
	Measure Measure
	Percent float64
}

func (t Threshold) String() string {
	s := t.Measure.String() + "=" + strconv.FormatFloat(t.Percent, 'f', -1, 64)
	if t.Type != "" {
		s = t.Type + ":" + s
	}
	return s
}

// ParseThresholds reads --min-coverage: a comma-separated list of
// [TYPE:]MEASURE=PCT entries, PCT from 0 to 100. A bare PCT is
// satisfied=PCT (the form seg matrix took first).
func ParseThresholds(s string) ([]Threshold, error) {
	var out []Threshold
	for _, entry := range strings.Split(s, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			return nil, fmt.Errorf("an empty entry in %q (want [TYPE:]MEASURE=PCT, comma-separated)", s)
		}
		t := Threshold{Measure: MeasureSatisfied}
		name, pct, named := strings.Cut(entry, "=")
		if !named {
			pct = entry
		} else {
			if typ, m, ok := strings.Cut(name, ":"); ok {
				if t.Type = strings.TrimSpace(typ); t.Type == "" {
					return nil, fmt.Errorf("%q: no type before the colon", entry)
				}
				name = m
			}
			name = strings.TrimSpace(name)
			i := slices.Index(measureNames[:], name)
			if i < 1 {
				msg := fmt.Sprintf("%q: unknown measure %q (want one of: %s)", entry, name, strings.Join(MeasureNames(), ", "))
				if c := diag.Closest(name, MeasureNames()); c != "" {
					msg = fmt.Sprintf("%q: unknown measure %q (did you mean %q?)", entry, name, c)
				}
				return nil, errors.New(msg)
			}
			t.Measure = Measure(i)
		}
		p, err := strconv.ParseFloat(strings.TrimSpace(pct), 64)
		if err != nil || math.IsNaN(p) || p < 0 || p > 100 {
			return nil, fmt.Errorf("%q: the percentage must be a number from 0 to 100, not %q", entry, strings.TrimSpace(pct))
		}
		t.Percent = p
		out = append(out, t)
	}
	return out, nil
}

// Shortfall is a threshold the coverage does not reach.
type Shortfall struct {
	Threshold
	// Count and Total are the figure; Missing is true when no
	// requirement of the threshold's type is counted at all.
	Count, Total int
	Missing      bool
}

// Shown is the figure in percent, rounded down to one decimal as
// reports show it (0 for 0 of 0).
func (s Shortfall) Shown() float64 {
	if s.Total == 0 {
		return 0
	}
	return float64(s.Count*1000/s.Total) / 10
}

// String says which threshold is missed and by how much.
func (s Shortfall) String() string {
	if s.Missing {
		return fmt.Sprintf("%s: no requirement of type %q is counted, so its %s cannot reach %v%%", s.Threshold, s.Type, s.Measure, s.Percent)
	}
	return fmt.Sprintf("%s: %d of %d %s (%.1f%%), %.1f points below %v%%", s.Threshold, s.Count, s.Total, s.Measure.of(),
		s.Shown(), s.Percent-s.Shown(), s.Percent)
}

// Below lists the thresholds ts the coverage does not reach, in the
// order given. A figure out of 0 (no leaves, no tests) is never below:
// nothing is missing; a type no requirement has always is (the
// threshold names something the tree does not hold).
func (cv Coverage) Below(ts []Threshold) []Shortfall {
	var out []Shortfall
	for _, t := range ts {
		count, total, ok := cv.Figure(t.Type, t.Measure)
		switch {
		case !ok:
			out = append(out, Shortfall{Threshold: t, Missing: true})
		case total > 0 && float64(count)*100 < t.Percent*float64(total):
			out = append(out, Shortfall{Threshold: t, Count: count, Total: total})
		}
	}
	return out
}
