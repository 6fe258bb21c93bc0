package diff

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Evidence is one piece of evidence a requirement's verdict counted, as
// evaluate records it (evaluate.Result.Counted) and seg-check/1 writes it
// (a requirement's evidence[]).
type Evidence struct {
	// Kind is verifies, implements, refined-by or outcome.
	Kind string `json:"kind"`
	// ID is the node at the other end (test, implementation, child,
	// outcome); Via, for an outcome, the test it confirms.
	ID   string `json:"id"`
	Via  string `json:"via,omitempty"`
	File string `json:"file"`
	Line int    `json:"line"`
}

func (e Evidence) key() [3]string { return [3]string{e.Kind, e.ID, e.Via} }

// Lost is a piece of evidence that counted for a requirement at the base
// and does not at the head, with where it was and where the head is.
type Lost struct {
	Requirement string `json:"requirement"`
	Title       string `json:"title"`
	Kind        string `json:"kind"`
	ID          string `json:"id"`
	Via         string `json:"via,omitempty"`
	// File and Line are where the evidence was written at the base.
	File string `json:"file"`
	Line int    `json:"line"`
	// HeadFile and HeadLine are where it is written at the head when it
	// still is (a link entry, an outcome), else where the requirement is.
	HeadFile string `json:"head_file"`
	HeadLine int    `json:"head_line"`
	// Now says what became of it: "removed" (the node is gone), "link
	// removed" (the node is there, its link is not), "not counted" (it
	// is there and the head's verdict does not count it), with the link's
	// state when it is known.
	Now string `json:"now"`
}

// Measure is one coverage measure of both sides: the share of
// requirements (of one type, or all) that are satisfied.
type Measure struct {
	Measure string `json:"measure"`
	// Type is the directive of the requirements measured, "" for all.
	Type string `json:"type"`
	Base Share  `json:"base"`
	Head Share  `json:"head"`
	// Fell is set when the head's share is below the base's.
	Fell bool `json:"fell"`
}

// Share is Count of Of.
type Share struct {
	Count int `json:"count"`
	Of    int `json:"of"`
}

// Percent is the share in percent.
func (s Share) Percent() float64 {
	if s.Of == 0 {
		return 0
	}
	return 100 * float64(s.Count) / float64(s.Of)
}

// below reports whether a is a smaller share than b, exactly.
func (a Share) below(b Share) bool { return a.Count*b.Of < b.Count*a.Of }

// compareEvidence lists the evidence that counted for a requirement in
// both sides at the base and does not at the head.
func compareEvidence(base, head *Evaluation) []Lost {
	out := []Lost{}
	if !base.HasEvidence || !head.HasEvidence {
		return out
	}
	now := byID(head.Requirements, func(r Requirement) string { return r.ID })
	nodes := byID(head.Nodes, func(n Node) string { return n.ID })
	edges := map[edgeKey]Edge{}
	for _, e := range head.Edges {
		if _, dup := edges[edgeKey{e.Type, e.From, e.To}]; !dup {
			edges[edgeKey{e.Type, e.From, e.To}] = e
		}
	}
	for _, o := range base.Requirements {
		h, ok := now[o.ID]
		if !ok {
			continue
		}
		counted := map[[3]string]bool{}
		for _, e := range h.Evidence {
			counted[e.key()] = true
		}
		for _, e := range o.Evidence {
			if counted[e.key()] {
				continue
			}
			l := Lost{Requirement: o.ID, Title: h.Title, Kind: e.Kind, ID: e.ID, Via: e.Via, File: e.File, Line: e.Line,
				HeadFile: h.File, HeadLine: h.Line, Now: "not counted"}
			if head.HasGraph {
				l.Now = "removed"
				n, there := nodes[e.ID]
				switch {
				case there && e.Kind == "outcome":
					l.HeadFile, l.HeadLine, l.Now = n.File, n.Line, "not counted"
				case there:
					typ := map[string]string{"verifies": "verifies", "implements": "implements", "refined-by": "refines"}[e.Kind]
					if edge, linked := edges[edgeKey{typ, e.ID, o.ID}]; linked {
						l.HeadFile, l.HeadLine, l.Now = edge.File, edge.Line, "not counted"
						if edge.State != "" && edge.State != "active" {
							l.Now += " (" + edge.State + ")"
						}
					} else {
						l.Now = "link removed"
					}
				}
			}
			out = append(out, l)
		}
	}
	slices.SortStableFunc(out, func(a, b Lost) int {
		return cmp.Or(strings.Compare(a.Requirement, b.Requirement), strings.Compare(a.Kind, b.Kind),
			strings.Compare(a.ID, b.ID), strings.Compare(a.Via, b.Via))
	})
	return out
}

// compareCoverage is every coverage measure both sides have: the
// satisfied share of all requirements, and of each requirement type
// (directive) both sides have requirements of, by type.
func compareCoverage(base, head *Evaluation) []Measure {
	share := func(e *Evaluation) (Share, map[string]Share) {
		var all Share
		byType := map[string]Share{}
		for _, r := range e.Requirements {
			s := byType[r.Kind]
			s.Of++
			all.Of++
			if statusRank(r.status()) == 0 {
				s.Count++
				all.Count++
			}
			byType[r.Kind] = s
		}
		return all, byType
	}
	ba, bt := share(base)
	ha, ht := share(head)
	out := []Measure{}
	if ba.Of > 0 && ha.Of > 0 {
		out = append(out, Measure{Measure: "satisfied", Base: ba, Head: ha, Fell: ha.below(ba)})
	}
	types := make([]string, 0, len(bt))
	for t := range bt {
		if _, ok := ht[t]; ok && t != "" {
			types = append(types, t)
		}
	}
	slices.Sort(types)
	if len(types) < 2 {
		return out // one type: the overall measure is the same
	}
	for _, t := range types {
		out = append(out, Measure{Measure: "satisfied", Type: t, Base: bt[t], Head: ht[t], Fell: ht[t].below(bt[t])})
	}
	return out
}

// Name is how a report names the measure: "satisfied", or "satisfied
// (sreq)" for one type.
func (m Measure) Name() string {
	if m.Type == "" {
		return m.Measure
	}
	return fmt.Sprintf("%s (%s)", m.Measure, m.Type)
}
