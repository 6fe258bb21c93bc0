// Package diff compares two evaluations of a tree (seg diff,
// docs/diff.md): which requirements were added or removed, whose status
// changed (and whether for the worse), which diagnostics are new or fixed,
// which links were added or removed, and which nodes say something else
// than before.
//
// An Evaluation is what one side knows: a seg run done in this process
// (report.Evaluation builds it from a *check.Check), or the JSON documents
// a run wrote (ReadFile: seg-check/1, seg-graph/1, or both merged). The
// comparison only uses what both sides know, and says what it could not
// compare, so reading two seg-check/1 files never reports "no link
// changed" when it simply had no links to look at.
package diff

import (
	"cmp"
	"slices"
	"strings"
)

// Schema names the JSON document of a Diff.
const Schema = "seg-diff/1"

// Evaluation is one side of a diff.
type Evaluation struct {
	// Label says what was evaluated: a file name, a revision, "work tree".
	Label string
	// Commit is the full commit ID when the side was read from git.
	Commit string
	// At is the evaluation date (YYYY-MM-DD), "" when unknown.
	At string

	// Requirements are sorted by ID.
	Requirements []Requirement
	// Diagnostics are known when HasDiagnostics (a seg-check/1 document
	// or a run).
	Diagnostics    []Diagnostic
	HasDiagnostics bool
	// Nodes and Edges are known when HasGraph (a seg-graph/1 document or
	// a run). Nodes are sorted by ID.
	Nodes    []Node
	Edges    []Edge
	HasGraph bool
	// TextKind says what Node.Text holds: "revision" (the node revision
	// of seg graph, revisions.md), "content" (a fingerprint of title,
	// options and body made by report.Evaluation until every node has a
	// revision), or "" when only titles are known.
	TextKind string
	// HasEvidence is set when the requirements carry the evidence their
	// verdicts counted (a run, or a seg-check/1 document with evidence[]).
	HasEvidence bool
	// Config says which configuration a side read from git was evaluated
	// with: "own", "head" (the base read with the head's), "none" (seg's
	// defaults); "" for a side read from a file or the work tree.
	Config string
	// Note is said once in every format when set (why a base was read
	// with the head's configuration).
	Note string
}

// Requirement is one requirement and its verdict, as seg-check/1 gives it.
type Requirement struct {
	ID      string   `json:"id"`
	Kind    string   `json:"kind"` // the directive
	Title   string   `json:"title"`
	File    string   `json:"file"`
	Line    int      `json:"line"`
	Verdict string   `json:"verdict"`
	Status  string   `json:"status"`
	Reasons []Reason `json:"reasons,omitempty"`
	// Evidence is what the verdict counted (Evaluation.HasEvidence);
	// seg diff compares it, and does not write it.
	Evidence []Evidence `json:"-"`
}

// Reason is a blocking reason of a verdict.
type Reason struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
}

// Diagnostic is one finding of a run.
type Diagnostic struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
}

// Node is one node of the graph.
type Node struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"` // requirement, test, implementation, outcome, waiver, need
	Directive string `json:"directive"`
	Title     string `json:"title"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	// Text is the fingerprint of what the node says (Evaluation.TextKind).
	Text string `json:"-"`
}

// Edge is one link.
type Edge struct {
	Type  string `json:"type"`
	From  string `json:"from"`
	To    string `json:"to"`
	State string `json:"state"`
	File  string `json:"file"`
	Line  int    `json:"line"`
}

// Diff is what changed from Base to Head (schema seg-diff/1).
type Diff struct {
	Schema string `json:"schema"`
	Base   Side   `json:"base"`
	Head   Side   `json:"head"`
	// Compared says which parts both sides knew.
	Compared Compared `json:"compared"`
	// Worse counts the requirements that got worse (the gate): those in
	// both whose status got worse, and added requirements that are
	// failing.
	Worse int `json:"worse"`
	// Lost lists the evidence that counted for a requirement in both at
	// the base and does not at the head; LostRequirements is how many
	// requirements lost some. Coverage lists the coverage measures of
	// both sides; Fell is how many fell. Each fails the gate.
	LostRequirements int       `json:"lost_requirements"`
	Lost             []Lost    `json:"lost"`
	Coverage         []Measure `json:"coverage"`
	Fell             int       `json:"fell"`
	// Notes are what the report says once (how a side was read).
	Notes        []string        `json:"notes"`
	Requirements RequirementDiff `json:"requirements"`
	Diagnostics  DiagnosticDiff  `json:"diagnostics"`
	Links        LinkDiff        `json:"links"`
	Nodes        NodeDiff        `json:"nodes"`
}

// Side describes one evaluation.
type Side struct {
	Label   string  `json:"label"`
	Commit  string  `json:"commit,omitempty"`
	At      string  `json:"at,omitempty"`
	Config  string  `json:"config,omitempty"`
	Summary Summary `json:"summary"`
}

// Summary counts one side's requirements and, when known, diagnostics.
type Summary struct {
	Requirements int  `json:"requirements"`
	Satisfied    int  `json:"satisfied"`
	Failing      int  `json:"failing"`
	Unproven     int  `json:"unproven"`
	Errors       *int `json:"errors"`
	Warnings     *int `json:"warnings"`
}

// Compared says which parts of the two evaluations could be compared.
type Compared struct {
	Diagnostics bool `json:"diagnostics"`
	Links       bool `json:"links"`
	// Evidence is set when both sides carry the evidence their verdicts
	// counted, so lost evidence could be looked for.
	Evidence bool `json:"evidence"`
	// Text is how node text was compared: "revision", "content",
	// "title" (only titles were known on one side), or "" (no nodes).
	Text string `json:"text"`
}

// RequirementDiff lists the requirements added, removed and changed.
type RequirementDiff struct {
	Added   []Requirement `json:"added"`
	Removed []Requirement `json:"removed"`
	// Changed are the requirements in both whose status changed: the
	// ones that got worse first (satisfied before, unsatisfied now,
	// first), then the others, each group by ID.
	Changed []StatusChange `json:"changed"`
}

// StatusChange is a requirement whose status changed.
type StatusChange struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Title string `json:"title"`
	File  string `json:"file"`
	Line  int    `json:"line"`
	// From and To are the statuses (satisfied, failing, unproven; or
	// unsatisfied when a side predates the three values).
	From string `json:"from"`
	To   string `json:"to"`
	// Worse is set when the status got worse.
	Worse bool `json:"worse"`
	// Reasons are the head's blocking reasons.
	Reasons []Reason `json:"reasons"`
}

// DiagnosticDiff lists the diagnostics only one side has. A diagnostic is
// the same on both sides when its code, severity, file and message are:
// lines move when text is added above them.
type DiagnosticDiff struct {
	New   []Diagnostic `json:"new"`
	Fixed []Diagnostic `json:"fixed"`
}

// LinkDiff lists the links only one side has, and those whose state
// changed.
type LinkDiff struct {
	Added   []Edge       `json:"added"`
	Removed []Edge       `json:"removed"`
	Changed []EdgeChange `json:"changed"`
}

// EdgeChange is a link in both whose state changed.
type EdgeChange struct {
	Edge
	From string `json:"from_state"`
}

// NodeDiff lists the nodes (of every kind) added, removed, and whose text
// changed.
type NodeDiff struct {
	Added       []Node `json:"added"`
	Removed     []Node `json:"removed"`
	TextChanged []Node `json:"text_changed"`
}

// Failed reports whether the diff fails the gate: a requirement got
// worse, lost evidence, or a coverage measure fell.
func (d *Diff) Failed() bool { return d.Worse > 0 || d.LostRequirements > 0 || d.Fell > 0 }

// statusRank orders statuses from best to worst: the evidence saying no
// (failing) is worse than no evidence yet (unproven).
func statusRank(s string) int {
	switch s {
	case "satisfied":
		return 0
	case "unproven", "unsatisfied":
		return 1
	case "failing":
		return 2
	}
	return 1
}

// status is a requirement's status, or its verdict when the side has no
// status (a seg-check/1 file written before the three values).
func (r Requirement) status() string {
	if r.Status != "" {
		return r.Status
	}
	return r.Verdict
}

// Compare says what changed from base to head.
func Compare(base, head *Evaluation) *Diff {
	d := &Diff{Schema: Schema, Base: side(base), Head: side(head)}
	d.Requirements = compareRequirements(base, head)
	for _, c := range d.Requirements.Changed {
		if c.Worse {
			d.Worse++
		}
	}
	for _, r := range d.Requirements.Added {
		if r.status() == "failing" {
			d.Worse++
		}
	}
	d.Compared.Evidence = base.HasEvidence && head.HasEvidence
	d.Lost = compareEvidence(base, head)
	for i, l := range d.Lost {
		if i == 0 || d.Lost[i-1].Requirement != l.Requirement {
			d.LostRequirements++
		}
	}
	d.Coverage = compareCoverage(base, head)
	for _, m := range d.Coverage {
		if m.Fell {
			d.Fell++
		}
	}
	d.Notes = []string{}
	for _, e := range []*Evaluation{base, head} {
		if e.Note != "" {
			d.Notes = append(d.Notes, e.Note)
		}
	}
	d.Diagnostics = DiagnosticDiff{New: []Diagnostic{}, Fixed: []Diagnostic{}}
	if base.HasDiagnostics && head.HasDiagnostics {
		d.Compared.Diagnostics = true
		d.Diagnostics = compareDiagnostics(base.Diagnostics, head.Diagnostics)
	}
	d.Links = LinkDiff{Added: []Edge{}, Removed: []Edge{}, Changed: []EdgeChange{}}
	d.Nodes = NodeDiff{Added: []Node{}, Removed: []Node{}, TextChanged: []Node{}}
	if base.HasGraph && head.HasGraph {
		d.Compared.Links = true
		d.Links = compareEdges(base.Edges, head.Edges)
		d.Compared.Text = "title"
		if base.TextKind != "" && base.TextKind == head.TextKind {
			d.Compared.Text = base.TextKind
		}
		d.Nodes = compareNodes(base.Nodes, head.Nodes, d.Compared.Text != "title")
	}
	return d
}

func side(e *Evaluation) Side {
	s := Side{Label: e.Label, Commit: e.Commit, At: e.At, Config: e.Config}
	s.Summary.Requirements = len(e.Requirements)
	for _, r := range e.Requirements {
		switch statusRank(r.status()) {
		case 0:
			s.Summary.Satisfied++
		case 2:
			s.Summary.Failing++
		default:
			s.Summary.Unproven++
		}
	}
	if e.HasDiagnostics {
		var errs, warns int
		for _, dg := range e.Diagnostics {
			switch dg.Severity {
			case "error":
				errs++
			case "warning":
				warns++
			}
		}
		s.Summary.Errors, s.Summary.Warnings = &errs, &warns
	}
	return s
}

func byID[T any](list []T, id func(T) string) map[string]T {
	m := make(map[string]T, len(list))
	for _, x := range list {
		if _, dup := m[id(x)]; !dup {
			m[id(x)] = x
		}
	}
	return m
}

func compareRequirements(base, head *Evaluation) RequirementDiff {
	rd := RequirementDiff{Added: []Requirement{}, Removed: []Requirement{}, Changed: []StatusChange{}}
	id := func(r Requirement) string { return r.ID }
	old, now := byID(base.Requirements, id), byID(head.Requirements, id)
	for _, r := range head.Requirements {
		o, ok := old[r.ID]
		if !ok {
			rd.Added = append(rd.Added, r)
			continue
		}
		from, to := o.status(), r.status()
		if from == to || (o.Status == "" || r.Status == "") && o.Verdict == r.Verdict {
			// Unchanged; a side without statuses compares verdicts only.
			continue
		}
		reasons := r.Reasons
		if reasons == nil {
			reasons = []Reason{}
		}
		rd.Changed = append(rd.Changed, StatusChange{ID: r.ID, Kind: r.Kind, Title: r.Title, File: r.File, Line: r.Line,
			From: from, To: to, Worse: statusRank(to) > statusRank(from), Reasons: reasons})
	}
	for _, r := range base.Requirements {
		if _, ok := now[r.ID]; !ok {
			rd.Removed = append(rd.Removed, r)
		}
	}
	// Newly unsatisfied first, then the other changes for the worse, then
	// the rest; each group by ID.
	group := func(c StatusChange) int {
		switch {
		case c.Worse && c.From == "satisfied":
			return 0
		case c.Worse:
			return 1
		}
		return 2
	}
	slices.SortStableFunc(rd.Changed, func(a, b StatusChange) int {
		return cmp.Or(cmp.Compare(group(a), group(b)), strings.Compare(a.ID, b.ID))
	})
	sortReqs := func(rs []Requirement) {
		slices.SortStableFunc(rs, func(a, b Requirement) int { return strings.Compare(a.ID, b.ID) })
	}
	sortReqs(rd.Added)
	sortReqs(rd.Removed)
	return rd
}

// diagKey is what makes two diagnostics the same finding on both sides.
type diagKey struct{ code, severity, file, message string }

func compareDiagnostics(base, head []Diagnostic) DiagnosticDiff {
	key := func(d Diagnostic) diagKey { return diagKey{d.Code, d.Severity, d.File, d.Message} }
	count := map[diagKey]int{}
	for _, d := range base {
		count[key(d)]++
	}
	dd := DiagnosticDiff{New: []Diagnostic{}, Fixed: []Diagnostic{}}
	for _, d := range head {
		if k := key(d); count[k] > 0 {
			count[k]--
		} else {
			dd.New = append(dd.New, d)
		}
	}
	// What is left of base's counts was fixed: the last ones of each key,
	// in base's order.
	left := count
	for i := len(base) - 1; i >= 0; i-- {
		if k := key(base[i]); left[k] > 0 {
			left[k]--
			dd.Fixed = append(dd.Fixed, base[i])
		}
	}
	slices.Reverse(dd.Fixed)
	sortDiags(dd.New)
	sortDiags(dd.Fixed)
	return dd
}

// sortDiags orders diagnostics as seg check does: by file, line, column,
// code; then severity and message, so the order never depends on the
// input's.
func sortDiags(ds []Diagnostic) {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column),
			strings.Compare(a.Code, b.Code), strings.Compare(a.Severity, b.Severity), strings.Compare(a.Message, b.Message))
	})
}

type edgeKey struct{ typ, from, to string }

func compareEdges(base, head []Edge) LinkDiff {
	ld := LinkDiff{Added: []Edge{}, Removed: []Edge{}, Changed: []EdgeChange{}}
	group := func(es []Edge) map[edgeKey][]Edge {
		m := map[edgeKey][]Edge{}
		for _, e := range es {
			k := edgeKey{e.Type, e.From, e.To}
			m[k] = append(m[k], e)
		}
		return m
	}
	old, now := group(base), group(head)
	keys := map[edgeKey]bool{}
	for k := range old {
		keys[k] = true
	}
	for k := range now {
		keys[k] = true
	}
	for k := range keys {
		o, n := slices.Clone(old[k]), slices.Clone(now[k])
		// Pair equal states first; what is left on both sides changed
		// state, the rest was added or removed.
		var restO []Edge
		for _, e := range o {
			if i := slices.IndexFunc(n, func(x Edge) bool { return x.State == e.State }); i >= 0 {
				n = slices.Delete(n, i, i+1)
			} else {
				restO = append(restO, e)
			}
		}
		for len(restO) > 0 && len(n) > 0 {
			ld.Changed = append(ld.Changed, EdgeChange{Edge: n[0], From: restO[0].State})
			restO, n = restO[1:], n[1:]
		}
		ld.Removed = append(ld.Removed, restO...)
		ld.Added = append(ld.Added, n...)
	}
	sortEdges := func(es []Edge) {
		slices.SortStableFunc(es, func(a, b Edge) int {
			return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.Type, b.Type), strings.Compare(a.To, b.To),
				strings.Compare(a.State, b.State), strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
		})
	}
	sortEdges(ld.Added)
	sortEdges(ld.Removed)
	slices.SortStableFunc(ld.Changed, func(a, b EdgeChange) int {
		return cmp.Or(strings.Compare(a.Edge.From, b.Edge.From), strings.Compare(a.Type, b.Type), strings.Compare(a.To, b.To),
			strings.Compare(a.From, b.From), strings.Compare(a.State, b.State))
	})
	return ld
}

func compareNodes(base, head []Node, useText bool) NodeDiff {
	nd := NodeDiff{Added: []Node{}, Removed: []Node{}, TextChanged: []Node{}}
	id := func(n Node) string { return n.ID }
	old, now := byID(base, id), byID(head, id)
	for _, n := range head {
		o, ok := old[n.ID]
		switch {
		case !ok:
			nd.Added = append(nd.Added, n)
		case useText && o.Text != n.Text, !useText && o.Title != n.Title:
			nd.TextChanged = append(nd.TextChanged, n)
		}
	}
	for _, n := range base {
		if _, ok := now[n.ID]; !ok {
			nd.Removed = append(nd.Removed, n)
		}
	}
	for _, l := range [][]Node{nd.Added, nd.Removed, nd.TextChanged} {
		slices.SortStableFunc(l, func(a, b Node) int { return strings.Compare(a.ID, b.ID) })
	}
	return nd
}
