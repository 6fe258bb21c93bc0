package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/results"
	"github.com/seg-trace/seg/revision"
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
		ids := make([]string, 0, g.Len())
		for m := range g.Nodes() {
			ids = append(ids, m.ID())
		}
		return nil, &UnknownIDError{ID: id, Suggestion: diag.Closest(id, ids)}
	}
	var out []*graph.Node
	for _, t := range g.BearsOn(n) {
		if c.Shows(t) {
			out = append(out, t)
		}
	}
	return out, nil
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
	Revision  string         `json:"revision"`
	Reasons   []jsonReason   `json:"reasons"`
	Notes     []jsonReason   `json:"notes"`
	Refines   []LinkedNode   `json:"refines"`
	RefinedBy []LinkedNode   `json:"refined_by"`
	Verifies  []TestEvidence `json:"verified_by"`
	Implement []LinkedNode   `json:"implemented_by"`
	// Policy names the evidence policy a leaf was decided under, left
	// out for the seed's rule.
	Policy string `json:"policy,omitempty"`
}

// LinkedNode is a node at the other end of an edge.
type LinkedNode struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	State string `json:"state"`
	// Link is "stale" or "unreviewed" when the link does not hold
	// (docs/revisions.md); it is left out when it does.
	Link string `json:"link,omitempty"`
	// Partial marks a verifies edge that verifies only in part (a
	// results case's PartiallyVerifies property).
	Partial  bool   `json:"partial,omitempty"`
	Revision string `json:"revision"` // the node's
	Verdict  string `json:"verdict,omitempty"`
	Status   string `json:"status,omitempty"`
	File     string `json:"file"` // where the link entry is written
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	// Below is the explanation of a requirement that refines this one
	// (refined_by), when the tree is expanded to its level
	// (ExplainTree); Repeated marks one explained earlier in the same
	// tree (or above it, on a cycle), whose evidence is not repeated.
	Below    *Explanation `json:"explanation,omitempty"`
	Repeated bool         `json:"explained_above,omitempty"`
}

// TestEvidence is a test specification that verifies the requirement, with
// every outcome that confirms it.
type TestEvidence struct {
	LinkedNode
	Outcomes []Outcome `json:"outcomes"`
}

// Outcome is one outcome of a test, with how it counted.
type Outcome struct {
	ID     string `json:"id"`
	Result string `json:"result"`
	Config string `json:"config,omitempty"`
	Status string `json:"status"`
	// Why is the reason code of an excluded outcome, Detail what it says
	// of this outcome.
	Why     string `json:"why,omitempty"`
	Detail  string `json:"detail,omitempty"`
	Waiver  string `json:"waiver,omitempty"`
	Expires string `json:"waiver_expires,omitempty"`
	// Case and CaseMessage are set on an outcome made from a results
	// file: the test case's name and the first lines of what its runner
	// said about it (the failure or skip message).
	Case        string `json:"case,omitempty"`
	CaseMessage string `json:"case_message,omitempty"`
	// WitnessPatterns, on an outcome made from a results file whose
	// witnesses were given as patterns over implementation IDs, says so:
	// each pattern, where it was given and how many it matched.
	WitnessPatterns string `json:"witness_patterns,omitempty"`
	File            string `json:"file"`
	Line            int    `json:"line"`
	Column          int    `json:"column"`
	// Waivers are every waiver that names the outcome, in force or not,
	// each with its justification.
	Waivers []WaiverNote `json:"waivers,omitempty"`
}

// outcomeOf renders how outcome evidence ev stands.
func outcomeOf(c *check.Check, wh where, ev evaluate.OutcomeEvidence) Outcome {
	o := ev.Outcome
	op := wh.at(o.Pos())
	out := Outcome{ID: o.ID(), Result: ev.Result.String(), Config: o.Config(), Status: ev.Standing.String(),
		File: op.Filename, Line: op.Line, Column: op.Column}
	if ev.Why != nil {
		out.Why, out.Detail = ev.Why.Name, ev.Detail
	}
	if ev.Waiver != nil {
		out.Waiver, out.Expires = ev.Waiver.ID(), ev.Waiver.ExpiresText()
	}
	if o.FromResults() {
		out.Case = o.Title()
		if n := c.ResultsOutcome(o.ID()); n != nil {
			out.CaseMessage = n.Body
			if wp := n.Option(results.OptionWitnessPatterns); wp != nil {
				out.WitnessPatterns = wp.Value
			}
		}
	}
	for _, we := range ev.Waivers {
		w := we.Waiver
		wp := wh.at(w.Pos())
		note := WaiverNote{ID: w.ID(), Title: w.Title(), InForce: we.InForce, State: evaluate.WaiverState(we),
			Expires: w.ExpiresText(), Justification: w.Justification(), File: wp.Filename, Line: wp.Line, Column: wp.Column}
		if !we.InForce {
			note.Why, note.Message = we.Why.Name, evaluate.WaiverLapse(we)
		}
		out.Waivers = append(out.Waivers, note)
	}
	return out
}

// WaiverNote is a waiver that names an outcome: whether it is in force at
// the evaluation date, and why it was written (its content).
type WaiverNote struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	InForce bool   `json:"in_force"`
	// State says why: in-force, expired, invalid-date (an :expires:
	// that is not a date), invalid (another error on the waiver), stale
	// (granted for another revision of what it excuses), future (dated
	// after the evaluation date) or unreviewed (strict review, no pin).
	State string `json:"state"`
	// Why is the reason code of a waiver not in force, Message what it
	// says.
	Why           string `json:"why,omitempty"`
	Message       string `json:"message,omitempty"`
	Expires       string `json:"expires,omitempty"`
	Justification string `json:"justification"`
	File          string `json:"file"`
	Line          int    `json:"line"`
	Column        int    `json:"column"`
}

// ExplainTree renders the evidence evaluate recorded for requirement n,
// with the requirements below it expanded, depth
// levels down (depth < 0: the whole tree below), each with its own
// evidence. A requirement is expanded once in a tree: where it comes
// again (two parents below n, or a cycle), it is marked Repeated.
func ExplainTree(c *check.Check, n *graph.Node, depth int) Explanation {
	return explain(c, n, depth, map[*graph.Node]bool{n: true})
}

func explain(c *check.Check, n *graph.Node, depth int, seen map[*graph.Node]bool) Explanation {
	wh := whereOf(c)
	v, _ := c.Result.Verdict(n)
	p := wh.at(n.Pos())
	x := Explanation{
		ID: n.ID(), Kind: n.Directive(), Title: n.Title(), File: p.Filename, Line: p.Line, Column: p.Column,
		Leaf: v.Leaf, Verdict: verdictWord(v.Satisfied), Status: v.Status.String(), Revision: revision.String(n.Revision()),
		Reasons: []jsonReason{}, Notes: []jsonReason{}, Refines: []LinkedNode{}, RefinedBy: []LinkedNode{},
		Verifies: []TestEvidence{}, Implement: []LinkedNode{}, Policy: PolicyText(v),
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
		ln := LinkedNode{ID: l.Node.ID(), Title: l.Node.Title(), State: l.State.Written.String(),
			Revision: revision.String(l.Node.Revision()), Verdict: verdictOf(c, l.Node), Status: statusOf(c, l.Node),
			File: ep.Filename, Line: ep.Line, Column: ep.Column}
		if l.State.Holds != evaluate.Current {
			ln.Link = l.State.Holds.String()
		}
		ln.Partial = l.Edge.Partial()
		return ln
	}
	for _, l := range v.Refines {
		x.Refines = append(x.Refines, linked(l))
	}
	for _, l := range v.RefinedBy {
		ln := linked(l)
		if _, isReq := c.Result.Verdict(l.Node); isReq && depth != 0 {
			if seen[l.Node] {
				ln.Repeated = true
			} else {
				seen[l.Node] = true
				below := explain(c, l.Node, depth-1, seen)
				ln.Below = &below
			}
		}
		x.RefinedBy = append(x.RefinedBy, ln)
	}
	for _, l := range v.Implements {
		x.Implement = append(x.Implement, linked(l))
	}
	for _, te := range v.Verifies {
		t := TestEvidence{LinkedNode: linked(te.Link), Outcomes: []Outcome{}}
		for _, ev := range te.Outcomes {
			t.Outcomes = append(t.Outcomes, outcomeOf(c, wh, ev))
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

// ExplainOptions are how an explanation is written.
type ExplainOptions struct {
	// Depth is how many levels of the requirements below each explained
	// one are expanded: < 0 the whole tree (each requirement once), 0
	// none.
	Depth int
	// Colored writes ANSI colors (text only).
	Colored bool
}

// WriteExplainJSON writes the seg-explain/1 document for the requirements
// node id bears on.
func WriteExplainJSON(w io.Writer, c *check.Check, id string, opt ExplainOptions) error {
	targets, err := ExplainTargets(c, id)
	if err != nil {
		return err
	}
	doc := jsonExplain{Schema: "seg-explain/1", At: Date(c.At), Query: id, Requirements: []Explanation{}}
	for _, n := range targets {
		doc.Requirements = append(doc.Requirements, ExplainTree(c, n, opt.Depth))
	}
	return encode(w, doc)
}

var statusWords = map[string]string{
	evaluate.Counted.String():  "counted",
	evaluate.Excused.String():  "excused",
	evaluate.Against.String():  "counts against",
	evaluate.Invalid.String():  "counts against: no valid result",
	evaluate.Skipped.String():  "skipped: no evidence either way",
	evaluate.Excluded.String(): "excluded",
}

// excludedWords say why an outcome is excluded, by reason code.
var excludedWords = map[string]string{
	evaluate.ReasonOutcomeUnwitnessed.Name: "excluded: witnesses no implementation",
	evaluate.ReasonFlakyRerun.Name:         "excluded: an earlier run; its last run passed",
}

// outcomeWords says how an outcome of status and (when excluded) reason
// code why counted, in words.
func outcomeWords(status, why string) string {
	if status == evaluate.Excluded.String() {
		if w, ok := excludedWords[why]; ok {
			return w
		}
		if why != "" {
			return "excluded (" + why + ")"
		}
	}
	return statusWords[status]
}

// WriteExplain writes the evidence tree of every requirement node id bears
// on, as text.
func WriteExplain(w io.Writer, c *check.Check, id string, opt ExplainOptions) error {
	targets, err := ExplainTargets(c, id)
	if err != nil {
		return err
	}
	st := newStyle(opt.Colored)
	bw := bufio.NewWriter(w)
	if n, _ := c.Graph.Lookup(id); n.Kind() != parser.Requirement {
		fmt.Fprintf(bw, "%s is %s; it bears on %s.\n\n", st.id(Printable(id)), diag.Article(n.Kind().String()), plural(len(targets), "requirement"))
	}
	for i, n := range targets {
		if i > 0 {
			bw.WriteByte('\n')
		}
		x := ExplainTree(c, n, opt.Depth)
		kind := "non-leaf"
		if x.Leaf {
			kind = "leaf"
		}
		fmt.Fprintf(bw, "%s %s  %s\n", st.id(Printable(x.ID)), st.status(x.Status), st.pos(at(x.File, x.Line, x.Column)))
		fmt.Fprintf(bw, "  %s (%s requirement, %s, revision %s)\n", Printable(x.Title), kind, Printable(x.Kind), x.Revision)
		if x.Policy != "" {
			fmt.Fprintf(bw, "  %s under %s\n", x.Status, Printable(x.Policy))
		}
		writeExplanation(bw, st, x, "  ", true)
	}
	fmt.Fprintf(bw, "\n(evaluated at %s)\n", Date(c.At))
	return bw.Flush()
}

// at is "file:line:col" for the text formats, the path escaped.
func at(file string, line, col int) string {
	return Printable(source.Position{Filename: file, Line: line, Column: col}.String())
}

// writeExplanation writes the sections of an explanation, each heading at
// indent. top is the explained requirement itself; below it, a
// requirement's own header is its line under "refined by:", and what it
// refines is left out (the tree came down from there).
func writeExplanation(w *bufio.Writer, st style, x Explanation, indent string, top bool) {
	in := indent + "  "
	if len(x.Reasons) > 0 {
		fmt.Fprintf(w, "%s%s\n", indent, st.bold("why unsatisfied:"))
		for _, r := range x.Reasons {
			fmt.Fprintf(w, "%s%s: %s [%s]\n", in, st.pos(at(r.File, r.Line, r.Column)), Printable(r.Message), r.Code)
		}
	}
	links := func(title string, ls []LinkedNode) {
		if len(ls) == 0 {
			return
		}
		fmt.Fprintf(w, "%s%s\n", indent, st.bold(title))
		for _, l := range ls {
			status := ""
			if l.Verdict != "" {
				status = "  " + st.status(l.Status)
			}
			fmt.Fprintf(w, "%s%s  %s%s%s  %s%s\n", in, st.id(Printable(l.ID)), l.State, linkNote(l), status, st.pos(at(l.File, l.Line, l.Column)), titled(Printable(l.Title)))
			switch {
			case l.Repeated:
				fmt.Fprintf(w, "%s  %s\n", in, st.dim("(explained above)"))
			case l.Below != nil:
				writeExplanation(w, st, *l.Below, in+"  ", false)
			}
		}
	}
	if top {
		links("refines:", x.Refines)
	}
	links("refined by:", x.RefinedBy)
	if len(x.Verifies) > 0 {
		fmt.Fprintf(w, "%s%s\n", indent, st.bold("verified by:"))
		for _, t := range x.Verifies {
			fmt.Fprintf(w, "%s%s  %s%s  %s%s\n", in, st.id(Printable(t.ID)), t.State, linkNote(t.LinkedNode), st.pos(at(t.File, t.Line, t.Column)), titled(Printable(t.Title)))
			if len(t.Outcomes) == 0 {
				fmt.Fprintf(w, "%s  %s\n", in, st.dim("(no outcomes)"))
			}
			for _, o := range t.Outcomes {
				desc := outcomeWords(o.Status, o.Why)
				if _, short := excludedWords[o.Why]; o.Detail != "" && !short {
					desc = "excluded: " + o.Detail
				}
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
				fmt.Fprintf(w, "%s  %s  %s%s  %s  %s\n", in, st.id(Printable(o.ID)), Printable(o.Result), Printable(cfg), Printable(desc), st.pos(at(o.File, o.Line, o.Column)))
				// A results outcome's ID holds its case name; what its
				// runner said follows, quoted.
				for _, l := range strings.Split(o.CaseMessage, "\n") {
					if l != "" {
						fmt.Fprintf(w, "%s    %s\n", in, st.dim("| "+Printable(l)))
					}
				}
				if o.WitnessPatterns != "" {
					fmt.Fprintf(w, "%s    witnesses %s\n", in, Printable(o.WitnessPatterns))
				}
				for _, wv := range o.Waivers {
					writeWaiver(w, st, wv, in+"    ")
				}
			}
		}
	}
	links("implemented by:", x.Implement)
	if len(x.Notes) > 0 {
		fmt.Fprintf(w, "%s%s\n", indent, st.bold("notes:"))
		for _, r := range x.Notes {
			fmt.Fprintf(w, "%s%s: %s [%s]\n", in, st.pos(at(r.File, r.Line, r.Column)), Printable(r.Message), r.Code)
		}
	}
}

// linkNote marks a link that does not hold: " (stale)".
func linkNote(l LinkedNode) string {
	note := ""
	if l.Link != "" {
		note = " (" + l.Link + ")"
	}
	if l.Partial {
		note += " (partial)"
	}
	return note
}

// PolicyText names the evidence policy v was decided under ("the policy
// of std_req: needs implements; seg.toml:14"), "" for the seed's rule.
func PolicyText(v evaluate.Verdict) string {
	if v.Policy == nil {
		return ""
	}
	return v.Policy.String()
}

// writeWaiver writes a waiver that names an outcome, whether it is in
// force, and its justification, indented under it.
func writeWaiver(w *bufio.Writer, st style, wv WaiverNote, indent string) {
	var state string
	switch {
	case wv.State == "in-force" && wv.Expires != "":
		state = "in force until " + wv.Expires
	case wv.State == "in-force":
		state = "in force, no expiry date"
	case wv.State == "invalid-date":
		state = fmt.Sprintf("not in force: :expires: %q is not a date", wv.Expires)
	case wv.State == "expired":
		state = "expired on " + wv.Expires
	default:
		state = "not in force: " + wv.Message + " [" + wv.Why + "]"
	}
	fmt.Fprintf(w, "%swaiver %s  %s  %s%s\n", indent, st.id(wv.ID), state, st.pos(at(wv.File, wv.Line, wv.Column)), titled(wv.Title))
	just := strings.TrimSpace(wv.Justification)
	if just == "" {
		fmt.Fprintf(w, "%s  %s\n", indent, st.dim("(no justification written)"))
		return
	}
	for _, line := range strings.Split(just, "\n") {
		if line = strings.TrimRight(line, " \t"); line == "" {
			w.WriteString("\n")
			continue
		}
		fmt.Fprintf(w, "%s  %s\n", indent, line)
	}
}

// titled is a node's title after its position, "" when it has none.
func titled(title string) string {
	if title == "" {
		return ""
	}
	return "  " + title
}
