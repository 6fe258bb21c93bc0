package evaluate

import (
	"fmt"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/revision"
)

// The codes of evidence that no longer applies (docs/revisions.md).
var (
	CodeStaleLink      = diag.NewWarning("stale-link", "a pinned link whose target changed since it was reviewed")
	CodeUnreviewedLink = diag.NewWarning("unreviewed-link", "strict review: a link without a pin in seg.lock")

	ReasonStaleEvidence      = diag.NewReason("stale-evidence", "note: an outcome excluded because its test or implementation changed since it was observed", false)
	ReasonStaleWaiver        = diag.NewReason("stale-waiver", "note: a waiver that excuses nothing because what it excuses changed since it was granted", false)
	ReasonUnreviewedEvidence = diag.NewReason("unreviewed-evidence", "note: strict review: an outcome excluded because its confirms or witnesses link has no pin", false)
	ReasonFutureEvidence     = diag.NewReason("future-evidence", "note: an outcome or waiver dated after the evaluation date", false)
	ReasonExpiredEvidence    = diag.NewReason("expired-evidence", "note: an outcome older than its test's maximum age", false)
	ReasonUndatedEvidence    = diag.NewReason("undated-evidence", "note: an outcome without :date: where a maximum age applies", false)
	ReasonInvalidWaiver      = diag.NewReason("invalid-waiver", "note: a waiver with an error on it, which excuses nothing", false)
)

// LinkState says whether a link still holds.
type LinkState uint8

const (
	// Current: no pin, or the pin names its target's revision now.
	Current LinkState = iota
	// Stale: pinned to another revision of its target.
	Stale
	// Unreviewed: strict review ([review] require-pins) and no pin.
	Unreviewed
)

func (s LinkState) String() string {
	switch s {
	case Stale:
		return "stale"
	case Unreviewed:
		return "unreviewed"
	}
	return "current"
}

// LinkState says whether the link e was written in still holds. The links
// of an outcome made from a results file are observations of the tree as
// it is, and a shadow outcome counts as invalid whatever its pins: both
// are always current.
func (e *evaluation) LinkState(edge *graph.Edge) LinkState {
	return linkState(e.g, e.opts.RequirePins, edge)
}

// linkState is LinkState for g. A link whose entry's condition does not
// hold for its target (or cannot be evaluated) is stale too: the
// condition is a pin written in the entry (graph.Condition).
func linkState(g *graph.Graph, requirePins bool, edge *graph.Edge) LinkState {
	if !g.ConditionHolds(edge) {
		return Stale
	}
	return pinState(g, requirePins, edge)
}

// pinState is what seg.lock says of the link e was written in: current
// (no pin, or its target's revision now), stale or unreviewed.
func pinState(g *graph.Graph, requirePins bool, edge *graph.Edge) LinkState {
	if !requirePins && !g.HasPins() { // most trees, and every one without seg.lock
		return Current
	}
	if !g.From(edge).Pinnable() {
		return Current
	}
	pin, ok := g.Pin(edge)
	if !ok {
		if requirePins {
			return Unreviewed
		}
		return Current
	}
	now := g.To(edge).Revision()
	for _, r := range pin.Revisions {
		if r != now {
			return Stale
		}
	}
	return Current
}

// linkDiagnostics are the stale-link warnings, at every pinned link whose
// target changed, and under strict review the unreviewed-link warnings at
// every link without a pin.
func (e *evaluation) linkDiagnostics() diag.List {
	var out diag.List
	if !e.opts.RequirePins && !e.g.HasPins() {
		return nil
	}
	for edge := range e.g.Edges() {
		if d, ok := e.linkDiagnostic(edge); ok {
			out = append(out, d)
		}
	}
	return out
}

// linkDiagnostic is the stale-link or unreviewed-link warning of edge, if
// it has one: a function of the edge, its pin and its two ends (and the
// options), which Update relies on to redo only the edges of the nodes an
// edit changed.
func (e *evaluation) linkDiagnostic(edge *graph.Edge) (diag.Diagnostic, bool) {
	g := e.g
	// A condition that does not hold has its own finding, the graph's.
	switch pinState(g, e.opts.RequirePins, edge) {
	case Stale:
		l := g.Link(edge)
		pin, _ := g.Pin(edge)
		var was []string
		for _, r := range pin.Revisions {
			was = append(was, revision.String(r))
		}
		return diag.Diagnostic{
			Code: CodeStaleLink,
			Message: fmt.Sprintf("link %s is stale: %q changed since it was reviewed (pinned %s, now %s)",
				l, l.To, strings.Join(was, ", "), revision.String(g.To(edge).Revision())),
			Detail: fmt.Sprintf("Review what changed (seg review --diff) and, if %q still holds, accept it: seg review --accept %s.", l.From, l.From),
			Span:   edge.Span(),
		}, true
	case Unreviewed:
		l := g.Link(edge)
		return diag.Diagnostic{
			Code:    CodeUnreviewedLink,
			Message: fmt.Sprintf("link %s has no pin in seg.lock (strict review)", l),
			Detail:  fmt.Sprintf("Under [review] require-pins every link is reviewed before it counts: seg review --accept %s pins it.", l.From),
			Span:    edge.Span(),
		}, true
	}
	return diag.Diagnostic{}, false
}

// staleDetail is what an excluded outcome's reason says of a stale link
// (its confirms or witnesses link, named link): changed, what a stale pin
// means, or which condition does not hold and what the target's fields
// are now.
func (e *evaluation) staleDetail(edge *graph.Edge, link, changed string) string {
	if c := e.g.Condition(edge); !c.Holds() {
		return fmt.Sprintf("its %s link's condition [%s] does not hold for %q: %s", link, c.Text, e.g.To(edge).ID(), c.Values())
	}
	return fmt.Sprintf("%s (its %s link is stale)", changed, link)
}
