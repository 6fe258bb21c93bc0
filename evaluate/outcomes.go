package evaluate

import (
	"fmt"
	"strings"
	"time"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

const testKind = parser.Test

// Standing is how an outcome bears on a test it confirms.
type Standing uint8

const (
	// Counted: a confirming outcome that passed, evidence for its test.
	Counted Standing = iota + 1
	// Excused: a confirming outcome that failed or errored, excused by a
	// waiver in force.
	Excused
	// Against: a confirming outcome that failed or errored, not excused:
	// it counts against.
	Against
	// Invalid: an outcome with an error on it (a missing or invalid
	// :result:, a bad option or link): it counts against, witnessed or
	// not, and no waiver excuses it.
	Invalid
	// Skipped: a confirming outcome that was skipped: no evidence either
	// way.
	Skipped
	// Excluded: not a confirming outcome of the test (Why says why); it
	// is listed, and counts for nothing.
	Excluded
)

var standingNames = [...]string{
	Counted: "counted", Excused: "excused", Against: "failing",
	Invalid: "invalid", Skipped: "skipped", Excluded: "excluded",
}

func (s Standing) String() string {
	if int(s) < len(standingNames) && standingNames[s] != "" {
		return standingNames[s]
	}
	return "unknown"
}

// Blocks reports whether an outcome of this standing makes the leaves its
// test verifies unsatisfied.
func (s Standing) Blocks() bool { return s == Against || s == Invalid }

// OutcomeEvidence is how one outcome stands for one test it confirms.
type OutcomeEvidence struct {
	Outcome  *graph.Node
	Standing Standing
	// Why is the reason code of an Excluded outcome.
	Why *diag.Code
	// Waiver is the waiver in force that excuses it (Excused), else nil.
	Waiver *graph.Node
	// Waivers are every waiver that names the outcome, in ID order, each
	// with whether it is in force at the evaluation date.
	Waivers []WaiverEvidence
}

// WaiverEvidence is a waiver that names an outcome.
type WaiverEvidence struct {
	Waiver  *graph.Node
	InForce bool
}

// evaluation is what one Evaluate call knows besides the graph: the date.
type evaluation struct {
	g  *graph.Graph
	at time.Time
}

func newEvaluation(g *graph.Graph, at time.Time) *evaluation {
	return &evaluation{g: g, at: at}
}

// inForce reports whether waiver w excuses anything at the evaluation
// date: a waiver without :expires: does not expire; one whose :expires:
// is not a valid date excuses nothing; one whose date is earlier than the
// evaluation date has expired (on the date itself it still holds).
func (e *evaluation) inForce(w *graph.Node) bool {
	if !w.HasExpires() {
		return true
	}
	return w.ExpiresValid() && !w.Expires().Before(e.at)
}

// waiverDiagnostics are the expired-waiver warnings.
func (e *evaluation) waiverDiagnostics() diag.List {
	var out diag.List
	for n := range e.g.Nodes() {
		if n.Kind() != parser.Waiver || !n.HasExpires() || !n.ExpiresValid() || e.inForce(n) {
			continue
		}
		out = append(out, diag.Diagnostic{
			Code:    CodeExpiredWaiver,
			Message: fmt.Sprintf("waiver %q expired on %s", n.ID(), n.ExpiresText()),
			Detail:  fmt.Sprintf("Its :expires: date is before the evaluation date %s, so it excuses nothing. Renew it with a new date or fix what it excused.", e.at.Format(time.DateOnly)),
			Span:    source.At(n.Pos()),
		})
	}
	return out
}

// outcomes says how every outcome that confirms test t stands, each once,
// in ID order.
func (e *evaluation) outcomes(t *graph.Node) []OutcomeEvidence {
	g := e.g
	var out []OutcomeEvidence
	last := -1
	for c := range g.In(t, graph.Confirms) {
		o := g.From(c)
		if o.Index() == last {
			continue // the same outcome listed twice in :confirms:
		}
		last = o.Index()
		ev := OutcomeEvidence{Outcome: o}
		for x := range g.In(o, graph.Excuses) {
			w := g.From(x)
			in := e.inForce(w)
			ev.Waivers = append(ev.Waivers, WaiverEvidence{Waiver: w, InForce: in})
			if in && ev.Waiver == nil {
				ev.Waiver = w
			}
		}
		switch r := o.Result(); {
		case o.Broken() || r == graph.ResultInvalid:
			ev.Standing = Invalid
		case e.flakyRerun(o, t):
			ev.Standing, ev.Why = Excluded, ReasonFlakyRerun
		case !g.HasOut(o, graph.Witnesses):
			ev.Standing, ev.Why = Excluded, ReasonOutcomeUnwitnessed
		case r == graph.Skipped:
			ev.Standing = Skipped
		case r == graph.Passed:
			ev.Standing = Counted
		case ev.Waiver != nil:
			ev.Standing = Excused
		default:
			ev.Standing = Against
		}
		if ev.Standing != Excused {
			ev.Waiver = nil
		}
		out = append(out, ev)
	}
	return out
}

// testFacts is what a test's outcomes say, as reasons: the count of
// outcomes that ran, the blocking reasons, and the notes.
type testFacts struct {
	counted int
	bad     []Reason
	notes   []Reason
}

// facts turns test t's outcomes into reasons.
func facts(g *graph.Graph, t *graph.Node, outcomes []OutcomeEvidence) *testFacts {
	f := &testFacts{}
	for _, ev := range outcomes {
		o := ev.Outcome
		label := outcomeLabel(o)
		at := func(code *diag.Code, blocking bool, format string, args ...any) Reason {
			return Reason{Code: code, Pos: o.Pos(), Subject: o.ID(), Blocking: blocking, Message: fmt.Sprintf(format, args...)}
		}
		switch ev.Standing {
		case Excluded:
			f.notes = append(f.notes, at(ev.Why, false, "%s of test %q is excluded: %s", label, t.ID(), exclusion(ev)))
		case Skipped:
			f.notes = append(f.notes, at(ReasonOutcomeSkipped, false, "%s of test %q was skipped: no evidence either way", label, t.ID()))
		case Counted:
			f.counted++
		case Invalid:
			f.counted++
			if o.Result() == graph.ResultInvalid {
				f.bad = append(f.bad, at(ReasonOutcomeInvalid, true, "%s of test %q has no valid :result: (%q), so it can only count against", label, t.ID(), o.ResultText()))
			} else {
				f.bad = append(f.bad, at(ReasonOutcomeInvalid, true, "%s of test %q %s, so it can only count against", label, t.ID(), invalidWhy(o)))
			}
		case Excused:
			f.counted++
			w := ev.Waiver
			f.notes = append(f.notes, at(ReasonOutcomeExcused, false, "%s of test %q %s, excused by waiver %q (%s)", label, t.ID(), o.Result(), w.ID(), g.Files().Position(w.Pos())))
		case Against:
			f.counted++
			msg := fmt.Sprintf("%s of test %q %s", label, t.ID(), o.Result())
			if lapsed := lapsedWaivers(ev.Waivers); lapsed != "" {
				msg += "; " + lapsed
			}
			f.bad = append(f.bad, at(ReasonOutcomeFailed, true, "%s", msg))
		}
	}
	return f
}

func outcomeLabel(o *graph.Node) string {
	if c := o.Config(); c != "" {
		return fmt.Sprintf("outcome %q (config %s)", o.ID(), c)
	}
	return fmt.Sprintf("outcome %q", o.ID())
}

// lapsedWaivers names the waivers that would have excused an outcome but
// are not in force.
func lapsedWaivers(ws []WaiverEvidence) string {
	var parts []string
	for _, w := range ws {
		switch {
		case w.InForce:
		case w.Waiver.ExpiresValid():
			parts = append(parts, fmt.Sprintf("waiver %q expired on %s", w.Waiver.ID(), w.Waiver.ExpiresText()))
		default:
			parts = append(parts, fmt.Sprintf("waiver %q has an invalid :expires: date", w.Waiver.ID()))
		}
	}
	return strings.Join(parts, "; ")
}

// whyNone says what became of a test's outcomes when none counted, so a
// reader sees at once that, say, a results file was given no witness.
func (f *testFacts) whyNone() string {
	unwitnessed, skipped := 0, 0
	for _, n := range f.notes {
		switch n.Code {
		case ReasonOutcomeUnwitnessed:
			unwitnessed++
		case ReasonOutcomeSkipped:
			skipped++
		}
	}
	var parts []string
	if unwitnessed > 0 {
		parts = append(parts, fmt.Sprintf("%d excluded because they witness no implementation", unwitnessed))
	}
	if skipped > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped", skipped))
	}
	if len(parts) == 0 {
		return ": it has no outcomes"
	}
	return ": of its outcomes, " + strings.Join(parts, ", ")
}
