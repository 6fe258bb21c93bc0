package report

import (
	"bufio"
	"fmt"
	"io"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// UnknownIDError is returned when explain is asked about an ID the graph
// does not hold.
type UnknownIDError struct {
	ID         string
	Suggestion string
}

func (e *UnknownIDError) Error() string {
	msg := fmt.Sprintf("no node has the ID %q", e.ID)
	if e.Suggestion != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", e.Suggestion)
	}
	return msg
}

// ExplainTargets lists the requirements an explanation of node id covers:
// the requirement itself, or every requirement a test, implementation,
// outcome or waiver bears on (graph.BearsOn), in ID order.
func ExplainTargets(c *check.Check, id string) ([]*graph.Node, error) {
	g := c.Graph
	n, ok := g.Lookup(id)
	if !ok {
		best, bestD := "", 4
		for m := range g.Nodes() {
			if d := graph.EditDistance(id, m.ID(), 3); d < bestD {
				best, bestD = m.ID(), d
			}
		}
		return nil, &UnknownIDError{ID: id, Suggestion: best}
	}
	return g.BearsOn(n), nil
}

// Explanation is the evidence tree of one requirement.
type Explanation struct {
	ID        string         `json:"id"`
	Kind      string         `json:"kind"`
	Title     string         `json:"title"`
	File      string         `json:"file"`
	Line      int            `json:"line"`
	Column    int            `json:"column"`
	Leaf      bool           `json:"leaf"`
	Verdict   string         `json:"verdict"`
	Status    string         `json:"status"`
	Reasons   []jsonReason   `json:"reasons"`
	Notes     []jsonReason   `json:"notes"`
	Refines   []LinkedNode   `json:"refines"`
	RefinedBy []LinkedNode   `json:"refined_by"`
	Verifies  []TestEvidence `json:"verified_by"`
	Implement []LinkedNode   `json:"implemented_by"`
}

// LinkedNode is a node at the other end of an edge.
type LinkedNode struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	State   string `json:"state"`
	Verdict string `json:"verdict,omitempty"`
	Status  string `json:"status,omitempty"`
	File    string `json:"file"` // where the link entry is written
	Line    int    `json:"line"`
	Column  int    `json:"column"`
}

// TestEvidence is a test specification that verifies the requirement, with
// every outcome that confirms it.
type TestEvidence struct {
	LinkedNode
	Outcomes []Outcome `json:"outcomes"`
}

// Outcome is one outcome of a test, with how it counted.
type Outcome struct {
	ID      string `json:"id"`
	Result  string `json:"result"`
	Config  string `json:"config,omitempty"`
	Status  string `json:"status"`
	Waiver  string `json:"waiver,omitempty"`
	Expires string `json:"waiver_expires,omitempty"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
}

// Explain renders the evidence evaluate recorded for requirement n.
func Explain(c *check.Check, n *graph.Node) Explanation {
	wh := whereOf(c)
	v, _ := c.Result.Verdict(n)
	p := wh.at(n.Pos())
	x := Explanation{
		ID: n.ID(), Kind: n.Directive(), Title: n.Title(), File: p.Filename, Line: p.Line, Column: p.Column,
		Leaf: v.Leaf, Verdict: verdictWord(v.Satisfied), Status: v.Status.String(),
		Reasons: []jsonReason{}, Notes: []jsonReason{}, Refines: []LinkedNode{}, RefinedBy: []LinkedNode{},
		Verifies: []TestEvidence{}, Implement: []LinkedNode{},
	}
	for _, r := range v.Reasons {
		if r.Blocking {
			x.Reasons = append(x.Reasons, reasonJSON(wh, r))
		} else {
			x.Notes = append(x.Notes, reasonJSON(wh, r))
		}
	}
	linked := func(l evaluate.Link) LinkedNode {
		ep := wh.at(l.Edge.Pos())
		return LinkedNode{ID: l.Node.ID(), Title: l.Node.Title(), State: l.Edge.State().String(), Verdict: verdictOf(c, l.Node), Status: statusOf(c, l.Node),
			File: ep.Filename, Line: ep.Line, Column: ep.Column}
	}
	for _, l := range v.Refines {
		x.Refines = append(x.Refines, linked(l))
	}
	for _, l := range v.RefinedBy {
		x.RefinedBy = append(x.RefinedBy, linked(l))
	}
	for _, l := range v.Implements {
		x.Implement = append(x.Implement, linked(l))
	}
	for _, te := range v.Verifies {
		t := TestEvidence{LinkedNode: linked(te.Link), Outcomes: []Outcome{}}
		for _, ev := range te.Outcomes {
			o := ev.Outcome
			op := wh.at(o.Pos())
			out := Outcome{ID: o.ID(), Result: o.Result().String(), Config: o.Config(), Status: ev.Standing.String(),
				File: op.Filename, Line: op.Line, Column: op.Column}
			if ev.Waiver != nil {
				out.Waiver, out.Expires = ev.Waiver.ID(), ev.Waiver.ExpiresText()
			}
			t.Outcomes = append(t.Outcomes, out)
		}
		x.Verifies = append(x.Verifies, t)
	}
	return x
}

// statusOf is the status of a requirement, "" for another node.
func statusOf(c *check.Check, n *graph.Node) string {
	if v, ok := c.Result.Verdict(n); ok {
		return v.Status.String()
	}
	return ""
}

// verdictOf is the verdict word of a requirement, "" for another node.
func verdictOf(c *check.Check, n *graph.Node) string {
	if v, ok := c.Result.Verdict(n); ok {
		return verdictWord(v.Satisfied)
	}
	return ""
}

type jsonExplain struct {
	Schema       string        `json:"schema"`
	At           string        `json:"at"`
	Query        string        `json:"query"`
	Requirements []Explanation `json:"requirements"`
}

// WriteExplainJSON writes the seg-explain/1 document for the requirements
// node id bears on.
func WriteExplainJSON(w io.Writer, c *check.Check, id string) error {
	targets, err := ExplainTargets(c, id)
	if err != nil {
		return err
	}
	doc := jsonExplain{Schema: "seg-explain/1", At: Date(c.At), Query: id, Requirements: []Explanation{}}
	for _, n := range targets {
		doc.Requirements = append(doc.Requirements, Explain(c, n))
	}
	return encode(w, doc)
}

var statusWords = map[string]string{
	evaluate.Counted.String():  "counted",
	evaluate.Excused.String():  "excused",
	evaluate.Against.String():  "counts against",
	evaluate.Invalid.String():  "counts against: no valid result",
	evaluate.Skipped.String():  "skipped: no evidence either way",
	evaluate.Excluded.String(): "excluded: witnesses no implementation",
}

// WriteExplain writes the evidence tree of every requirement node id bears
// on, as text.
func WriteExplain(w io.Writer, c *check.Check, id string, colored bool) error {
	targets, err := ExplainTargets(c, id)
	if err != nil {
		return err
	}
	st := newStyle(colored)
	bw := bufio.NewWriter(w)
	if n, _ := c.Graph.Lookup(id); n.Kind() != parser.Requirement {
		fmt.Fprintf(bw, "%s is a %s; it bears on %s.\n\n", st.id(Printable(id)), n.Kind(), plural(len(targets), "requirement"))
	}
	for i, n := range targets {
		if i > 0 {
			bw.WriteByte('\n')
		}
		writeExplanation(bw, st, Explain(c, n))
	}
	fmt.Fprintf(bw, "\n(evaluated at %s)\n", Date(c.At))
	return bw.Flush()
}

// at is "file:line:col" for the text formats, the path escaped.
func at(file string, line, col int) string {
	return Printable(source.Position{Filename: file, Line: line, Column: col}.String())
}

func writeExplanation(w *bufio.Writer, st style, x Explanation) {
	kind := "non-leaf"
	if x.Leaf {
		kind = "leaf"
	}
	fmt.Fprintf(w, "%s %s  %s\n", st.id(Printable(x.ID)), st.status(x.Status), st.pos(at(x.File, x.Line, x.Column)))
	fmt.Fprintf(w, "  %s (%s requirement, %s)\n", Printable(x.Title), kind, Printable(x.Kind))
	if len(x.Reasons) > 0 {
		fmt.Fprintf(w, "  %s\n", st.bold("why unsatisfied:"))
		for _, r := range x.Reasons {
			fmt.Fprintf(w, "    %s: %s [%s]\n", st.pos(at(r.File, r.Line, r.Column)), Printable(r.Message), r.Code)
		}
	}
	links := func(title string, ls []LinkedNode) {
		if len(ls) == 0 {
			return
		}
		fmt.Fprintf(w, "  %s\n", st.bold(title))
		for _, l := range ls {
			extra := ""
			if l.Verdict != "" {
				extra = "  " + st.status(l.Status)
			}
			fmt.Fprintf(w, "    %s  %s%s  %s\n", st.id(Printable(l.ID)), l.State, extra, st.pos(at(l.File, l.Line, l.Column)))
		}
	}
	links("refines:", x.Refines)
	links("refined by:", x.RefinedBy)
	if len(x.Verifies) > 0 {
		fmt.Fprintf(w, "  %s\n", st.bold("verified by:"))
		for _, t := range x.Verifies {
			fmt.Fprintf(w, "    %s  %s  %s\n", st.id(Printable(t.ID)), t.State, st.pos(at(t.File, t.Line, t.Column)))
			if len(t.Outcomes) == 0 {
				fmt.Fprintf(w, "      %s\n", st.dim("(no outcomes)"))
			}
			for _, o := range t.Outcomes {
				desc := statusWords[o.Status]
				if o.Waiver != "" {
					desc += " by waiver " + o.Waiver
					if o.Expires != "" {
						desc += " (expires " + o.Expires + ")"
					}
				}
				cfg := ""
				if o.Config != "" {
					cfg = "  [" + o.Config + "]"
				}
				fmt.Fprintf(w, "      %s  %s%s  %s  %s\n", st.id(Printable(o.ID)), Printable(o.Result), Printable(cfg), Printable(desc), st.pos(at(o.File, o.Line, o.Column)))
			}
		}
	}
	links("implemented by:", x.Implement)
	if len(x.Notes) > 0 {
		fmt.Fprintf(w, "  %s\n", st.bold("notes:"))
		for _, r := range x.Notes {
			fmt.Fprintf(w, "    %s: %s [%s]\n", st.pos(at(r.File, r.Line, r.Column)), Printable(r.Message), r.Code)
		}
	}
}
