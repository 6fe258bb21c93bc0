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
	// Excluded: not evidence for the test at this evaluation (Why says
	// why: it witnesses no implementation, its test or implementation
	// changed since, it is dated in the future or too old); it is listed,
	// and counts for nothing.
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

// OutcomeEvidence is how one outcome stands for one test it confirms.
type OutcomeEvidence struct {
	Outcome  *graph.Node
	Standing Standing
	// Result is the outcome's result as written or read from its results
	// file; Standing, not Result, is what it counts as.
	Result graph.Result
	// Why is the reason code of an Excluded outcome, and Detail what the
	// reason says of it ("it witnesses no implementation").
	Why    *diag.Code
	Detail string
	// Waiver is the waiver in force that excuses it (Excused), else nil.
	Waiver *graph.Node
	// Waivers are every waiver that names the outcome for this test
	// (directly, or through the test and its :cases:), in ID order, each
	// with whether it is in force and, when not, why.
	Waivers []WaiverEvidence
}

// WaiverEvidence is a waiver that names an outcome.
type WaiverEvidence struct {
	Waiver  *graph.Node
	InForce bool
	// Why is the code of what keeps it from excusing: expired-waiver,
	// stale-waiver, future-evidence, unreviewed-link or invalid-waiver.
	Why *diag.Code
}

// Options are what an evaluation takes besides the graph.
type Options struct {
	// At is the evaluation date; only its UTC day counts.
	At time.Time
	// MaxAgeDays is the maximum age, in days, of every test's outcomes
	// (seg.toml's [evidence] max-age-days; 0 for none). A test's own
	// :max-age: replaces it.
	MaxAgeDays int
	// RequirePins is strict review ([review] require-pins): a link
	// without a pin counts as stale.
	RequirePins bool
	// WaiverWarnDays is how many days before its expiry a waiver in force
	// gets expiring-waiver ([check] waiver_warn_days, 30 unless set); 0
	// for no warning.
	WaiverWarnDays int
	// Policies are the evidence policies (policy.go); nil for none.
	Policies *Policies
}

// evaluation is what one Evaluate call knows besides the graph.
type evaluation struct {
	g    *graph.Graph
	at   time.Time
	opts Options
}

func newEvaluation(g *graph.Graph, o Options) *evaluation {
	return &evaluation{g: g, at: Day(o.At), opts: o}
}

// waiverStanding says whether waiver w excuses anything at the evaluation
// date, whatever it names: why is nil when it does, else the code of what
// keeps it from excusing. A waiver with an error on it excuses nothing (so
// does one whose :expires: or :date: cannot be read); one without
// :expires: does not expire; one whose date is earlier than the
// evaluation date has expired (on the date itself it still holds); one
// dated after the evaluation date was not granted yet.
func (e *evaluation) waiverStanding(w *graph.Node) (why *diag.Code) {
	switch day, has, ok := w.Date(); {
	case w.Broken() || w.HasExpires() && !w.ExpiresValid() || has && !ok:
		return ReasonInvalidWaiver
	case w.HasExpires() && w.Expires().Before(e.at):
		return CodeExpiredWaiver
	case has && day.After(e.at):
		return ReasonFutureEvidence
	}
	return nil
}

// waiverDiagnostic is the expired-waiver or expiring-waiver warning of
// node n, if it is a waiver that has one: a function of n alone (and the
// options), which Update relies on to redo only the waivers an edit
// changed.
func (e *evaluation) waiverDiagnostic(n *graph.Node) (diag.Diagnostic, bool) {
	if n.Kind() != parser.Waiver || !n.HasExpires() || !n.ExpiresValid() {
		return diag.Diagnostic{}, false
	}
	left := daysBetween(e.at, n.Expires())
	switch {
	case left < 0:
		return diag.Diagnostic{
			Code:    CodeExpiredWaiver,
			Message: fmt.Sprintf("waiver %q expired on %s", n.ID(), n.ExpiresText()),
			Detail:  fmt.Sprintf("Its :expires: date is before the evaluation date %s, so it excuses nothing. Renew it with a new date or fix what it excused.", e.at.Format(time.DateOnly)),
			Span:    source.At(n.Pos()),
		}, true
	case e.opts.WaiverWarnDays > 0 && left <= e.opts.WaiverWarnDays && e.waiverStanding(n) == nil:
		when := "in " + plural(left, "day")
		if left == 0 {
			when = "today"
		}
		return diag.Diagnostic{
			Code:    CodeExpiringWaiver,
			Message: fmt.Sprintf("waiver %q expires on %s, %s", n.ID(), n.ExpiresText(), when),
			Detail:  fmt.Sprintf("After %s it excuses nothing. Fix what it excuses, or renew it with a later date ([check] waiver_warn_days sets how early this warning comes; %d days now).", n.ExpiresText(), e.opts.WaiverWarnDays),
			Span:    source.At(n.Pos()),
		}, true
	}
	return diag.Diagnostic{}, false
}

// CodeExpiringWaiver warns of a waiver's debt before it falls due.
var CodeExpiringWaiver = diag.NewWarning("expiring-waiver", "a waiver in force that expires within [check] waiver_warn_days of the evaluation date")

// daysBetween is the number of whole days from a to b (both UTC days).
func daysBetween(a, b time.Time) int {
	return int(b.Sub(a).Hours() / 24)
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// outcomes says how every outcome that confirms test t stands, each once,
// in ID order.
func (e *evaluation) outcomes(t *graph.Node) []OutcomeEvidence {
	g := e.g
	var out []OutcomeEvidence
	var confirms []*graph.Edge
	testWaivers := g.TestWaivers(t)
	flush := func() {
		if len(confirms) > 0 {
			out = append(out, e.outcome(t, g.From(confirms[0]), confirms, testWaivers))
			confirms = confirms[:0]
		}
	}
	for c := range g.In(t, graph.Confirms) {
		if len(confirms) > 0 && g.From(confirms[0]) != g.From(c) {
			flush()
		}
		confirms = append(confirms, c) // the same outcome may list t twice
	}
	flush()
	return out
}

// outcome decides how outcome o stands for test t, which it confirms
// through the edges confirms. Bad input is never excluded: it counts
// against. Then an outcome is excluded when it is dated after the
// evaluation date, witnesses no current implementation, confirms a test
// that changed since, or is older than the test's maximum age (or
// undated where one applies).
func (e *evaluation) outcome(t, o *graph.Node, confirms []*graph.Edge, testWaivers []*graph.Node) OutcomeEvidence {
	g := e.g
	ev := OutcomeEvidence{Outcome: o, Result: o.Result()}
	for _, w := range g.WaiversOf(o, testWaivers) {
		we := WaiverEvidence{Waiver: w, Why: e.waiverStanding(w)}
		if we.Why == nil {
			we.Why = e.excusesState(w, o, t)
		}
		we.InForce = we.Why == nil
		ev.Waivers = append(ev.Waivers, we)
		if we.InForce && ev.Waiver == nil {
			ev.Waiver = w
		}
	}
	exclude := func(why *diag.Code, format string, args ...any) OutcomeEvidence {
		ev.Standing, ev.Why, ev.Detail, ev.Waiver = Excluded, why, fmt.Sprintf(format, args...), nil
		return ev
	}
	r := o.Result()
	if o.Broken() || r == graph.ResultInvalid {
		ev.Standing, ev.Waiver = Invalid, nil
		return ev
	}
	if e.flakyRerun(o, t) {
		return exclude(ReasonFlakyRerun, "an earlier run of a flaky case; its last run %q passed and counts in its place", o.Attr(optionRerunOf))
	}
	if why, detail := e.excluded(o, t, confirms); why != nil {
		return exclude(why, "%s", detail)
	}
	switch {
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
	return ev
}

// excluded says why outcome o, confirming test t through the edges
// confirms, does not count for t at the evaluation date (nil when it
// may): it is dated after it, witnesses no current implementation, its
// confirms link is stale or unreviewed, or it is older than t's maximum
// age.
func (e *evaluation) excluded(o, t *graph.Node, confirms []*graph.Edge) (*diag.Code, string) {
	day, dated := e.outcomeDate(o)
	if dated && day.After(e.at) {
		return ReasonFutureEvidence, fmt.Sprintf("it is dated %s, after the evaluation date", day.Format(time.DateOnly))
	}
	if why, detail := e.witnessed(o); why != nil {
		return why, detail
	}
	for _, c := range confirms {
		switch e.LinkState(c) {
		case Stale:
			return ReasonStaleEvidence, e.staleDetail(c, "confirms", fmt.Sprintf("test %q changed since it was observed", t.ID()))
		case Unreviewed:
			return ReasonUnreviewedEvidence, fmt.Sprintf("its confirms link to test %q has no pin (strict review)", t.ID())
		}
	}
	// A maximum age: the test's own :max-age:, else [evidence]
	// max-age-days. Exactly that many days old still counts.
	days, own := t.MaxAge()
	if own && days == 0 {
		return ReasonExpiredEvidence, fmt.Sprintf("test %q's :max-age: cannot be read", t.ID())
	}
	if !own {
		days = e.opts.MaxAgeDays
	}
	whose := "the"
	if own {
		whose = fmt.Sprintf("test %q's", t.ID())
	}
	if days > 0 && !dated {
		return ReasonUndatedEvidence, fmt.Sprintf("it has no :date:, and %s maximum age is %s", whose, plural(days, "day"))
	}
	if days > 0 {
		if age := daysBetween(day, e.at); age > days {
			return ReasonExpiredEvidence, fmt.Sprintf("it is %s old, over %s maximum age of %s", plural(age, "day"), whose, plural(days, "day"))
		}
	}
	return nil, ""
}

// outcomeDate is the day an outcome was observed: its :date:, or for an
// outcome made from a results file without a time, the evaluation date
// (it is an observation of the tree as it is). dated is false for a
// hand-written outcome without :date:.
func (e *evaluation) outcomeDate(o *graph.Node) (day time.Time, dated bool) {
	if d, has, ok := o.Date(); has && ok {
		return d, true
	}
	if o.FromResults() {
		return e.at, true
	}
	return time.Time{}, false
}

// witnessed says why an outcome is no confirming outcome for want of a
// witness (SEG-SREQ-355): none when one of its witnesses links is
// current; stale-evidence when the implementations it witnessed changed
// since; unreviewed-evidence when, under strict review, none is pinned;
// outcome-unwitnessed when it names none.
func (e *evaluation) witnessed(o *graph.Node) (*diag.Code, string) {
	g := e.g
	var why *diag.Code
	detail := "it witnesses no implementation"
	for w := range g.Out(o, graph.Witnesses) {
		switch e.LinkState(w) {
		case Current:
			return nil, ""
		case Stale:
			why, detail = ReasonStaleEvidence, e.staleDetail(w, "witnesses", fmt.Sprintf("implementation %q changed since it was observed", g.To(w).ID()))
		case Unreviewed:
			if why == nil {
				why, detail = ReasonUnreviewedEvidence, fmt.Sprintf("its witnesses link to %q has no pin (strict review)", g.To(w).ID())
			}
		}
	}
	if why == nil {
		why = ReasonOutcomeUnwitnessed
	}
	return why, detail
}

// excusesState says whether waiver w's link to outcome o (or to test t,
// when w covers o through it) holds: nil when one does, else stale-waiver
// or unreviewed-link.
func (e *evaluation) excusesState(w, o, t *graph.Node) *diag.Code {
	g := e.g
	var why *diag.Code
	for x := range g.Out(w, graph.Excuses) {
		if to := g.To(x); to != o && to != t {
			continue
		}
		switch e.LinkState(x) {
		case Current:
			return nil
		case Stale:
			why = ReasonStaleWaiver
		case Unreviewed:
			if why == nil {
				why = CodeUnreviewedLink
			}
		}
	}
	if why == nil {
		why = ReasonStaleWaiver
	}
	return why
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
		if ev.Standing == Counted { // most outcomes: nothing to say
			f.counted++
			continue
		}
		label := outcomeLabel(o)
		at := func(code *diag.Code, blocking bool, format string, args ...any) Reason {
			return Reason{Code: code, Pos: o.Pos(), Subject: o.ID(), Blocking: blocking, Message: fmt.Sprintf(format, args...)}
		}
		switch ev.Standing {
		case Excluded:
			f.notes = append(f.notes, at(ev.Why, false, "%s of test %q is excluded: %s", label, t.ID(), ev.Detail))
		case Skipped:
			f.notes = append(f.notes, at(ReasonOutcomeSkipped, false, "%s of test %q was skipped: no evidence either way", label, t.ID()))
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
// do not, and why.
func lapsedWaivers(ws []WaiverEvidence) string {
	var parts []string
	for _, w := range ws {
		if w.InForce {
			continue
		}
		parts = append(parts, WaiverLapse(w))
	}
	return strings.Join(parts, "; ")
}

// WaiverLapse says why a waiver does not excuse an outcome.
func WaiverLapse(w WaiverEvidence) string {
	id := w.Waiver.ID()
	switch w.Why {
	case CodeExpiredWaiver:
		return fmt.Sprintf("waiver %q expired on %s", id, w.Waiver.ExpiresText())
	case ReasonStaleWaiver:
		return fmt.Sprintf("waiver %q was granted for another revision of what it excuses (its excuses link is stale)", id)
	case CodeUnreviewedLink:
		return fmt.Sprintf("waiver %q's excuses link has no pin (strict review)", id)
	case ReasonFutureEvidence:
		d, _, _ := w.Waiver.Date()
		return fmt.Sprintf("waiver %q is dated %s, after the evaluation date", id, d.Format(time.DateOnly))
	}
	if w.Waiver.HasExpires() && !w.Waiver.ExpiresValid() {
		return fmt.Sprintf("waiver %q has an invalid :expires: date", id)
	}
	return fmt.Sprintf("waiver %q has an error in its directive", id)
}

// WaiverState is one word for how a waiver stands for an outcome:
// in-force, expired, invalid-date (an :expires: that is not a date),
// invalid (another error on it), stale (granted for another revision of
// what it excuses), future (dated after the evaluation date) or
// unreviewed (strict review, and its excuses link has no pin).
func WaiverState(w WaiverEvidence) string {
	switch {
	case w.InForce:
		return "in-force"
	case w.Why == CodeExpiredWaiver:
		return "expired"
	case w.Why == ReasonStaleWaiver:
		return "stale"
	case w.Why == ReasonFutureEvidence:
		return "future"
	case w.Why == CodeUnreviewedLink:
		return "unreviewed"
	case w.Waiver.HasExpires() && !w.Waiver.ExpiresValid():
		return "invalid-date"
	}
	return "invalid"
}

// whyNone says what became of a test's outcomes when none counted, so a
// reader sees at once that, say, a results file was given no witness.
func (f *testFacts) whyNone() string {
	counts := map[*diag.Code]int{}
	for _, n := range f.notes {
		counts[n.Code]++
	}
	var parts []string
	for _, c := range []*diag.Code{ReasonOutcomeUnwitnessed, ReasonOutcomeSkipped, ReasonStaleEvidence,
		ReasonUnreviewedEvidence, ReasonFutureEvidence, ReasonExpiredEvidence, ReasonUndatedEvidence} {
		n := counts[c]
		switch {
		case n == 0:
		case c == ReasonOutcomeUnwitnessed:
			parts = append(parts, fmt.Sprintf("%d excluded because they witness no implementation", n))
		case c == ReasonOutcomeSkipped:
			parts = append(parts, fmt.Sprintf("%d skipped", n))
		default:
			parts = append(parts, fmt.Sprintf("%d excluded (%s)", n, c))
		}
	}
	if len(parts) == 0 {
		return ": it has no outcomes"
	}
	return ": of its outcomes, " + strings.Join(parts, ", ")
}
