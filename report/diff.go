package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/diff"
	"github.com/seg-trace/seg/parser"
)

// Evaluation is one side of seg diff made from a run: exactly what seg
// check --format json and seg graph --format json would say (the same
// fields, read the same way), with each node's revision.
func Evaluation(c *check.Check, label string) *diff.Evaluation {
	wh := whereOf(c)
	e := &diff.Evaluation{Label: label, At: Date(c.At), HasDiagnostics: true, HasGraph: true, TextKind: "revision"}
	for _, r := range c.Requirements() {
		p := wh.at(r.Node.Pos())
		dr := diff.Requirement{ID: r.Node.ID(), Kind: r.Node.Directive(), Title: r.Node.Title(), File: p.Filename, Line: p.Line,
			Verdict: verdictWord(r.Verdict.Satisfied), Status: r.Verdict.Status.String()}
		for _, reason := range r.Verdict.Blocking() {
			rp := wh.at(reason.Pos)
			dr.Reasons = append(dr.Reasons, diff.Reason{Code: reason.Code.Name, Message: reason.Message, File: rp.Filename, Line: rp.Line, Column: rp.Column})
		}
		e.Requirements = append(e.Requirements, dr)
	}
	for _, d := range c.Diagnostics {
		p := wh.at(d.Span.Start)
		e.Diagnostics = append(e.Diagnostics, diff.Diagnostic{Code: d.Code.Name, Severity: d.Severity().String(), Message: d.Message,
			File: p.Filename, Line: p.Line, Column: p.Column})
	}
	for n := range c.Graph.Nodes() {
		p := wh.at(n.Pos())
		e.Nodes = append(e.Nodes, diff.Node{ID: n.ID(), Kind: n.Kind().String(), Directive: n.Directive(), Title: n.Title(),
			File: p.Filename, Line: p.Line, Text: parser.RevisionString(n.Revision())})
	}
	for _, je := range sortedEdges(c) {
		e.Edges = append(e.Edges, diff.Edge{Type: je.Type, From: je.From, To: je.To, State: je.State, File: je.File, Line: je.Line})
	}
	return e
}

// WriteDiffJSON writes the seg-diff/1 document.
func WriteDiffJSON(w io.Writer, d *diff.Diff) error { return encode(w, d) }

// diffTitle is the headline of a diff.
func diffTitle(d *diff.Diff) string {
	switch {
	case d.Worse == 1:
		return "1 requirement got worse"
	case d.Worse > 1:
		return fmt.Sprintf("%d requirements got worse", d.Worse)
	}
	return "no requirement got worse"
}

func sideName(s diff.Side) string {
	name := s.Label
	if s.Commit != "" {
		name += " (" + s.Commit[:min(12, len(s.Commit))] + ")"
	}
	return name
}

func countPtr(p *int) string {
	if p == nil {
		return "?"
	}
	return fmt.Sprint(*p)
}

// figures are the summary rows of a diff: name, base, head.
func figures(d *diff.Diff) [][3]string {
	b, h := d.Base.Summary, d.Head.Summary
	rows := [][3]string{
		{"requirements", fmt.Sprint(b.Requirements), fmt.Sprint(h.Requirements)},
		{"satisfied", fmt.Sprint(b.Satisfied), fmt.Sprint(h.Satisfied)},
		{"failing", fmt.Sprint(b.Failing), fmt.Sprint(h.Failing)},
		{"unproven", fmt.Sprint(b.Unproven), fmt.Sprint(h.Unproven)},
	}
	if d.Compared.Diagnostics {
		rows = append(rows, [3]string{"errors", countPtr(b.Errors), countPtr(h.Errors)},
			[3]string{"warnings", countPtr(b.Warnings), countPtr(h.Warnings)})
	}
	return rows
}

func signed(a, b string) string {
	var x, y int
	if _, err := fmt.Sscan(a, &x); err != nil {
		return ""
	}
	if _, err := fmt.Sscan(b, &y); err != nil {
		return ""
	}
	switch {
	case y > x:
		return fmt.Sprintf("+%d", y-x)
	case y < x:
		return fmt.Sprintf("−%d", x-y)
	}
	return ""
}

// notCompared says what the inputs did not allow comparing.
func notCompared(d *diff.Diff) []string {
	var out []string
	if !d.Compared.Diagnostics {
		out = append(out, "diagnostics (give seg check --format json documents)")
	}
	if !d.Compared.Links {
		out = append(out, "links and node text (give seg graph --format json documents too)")
	} else if d.Compared.Text == "title" {
		out = append(out, "node text beyond titles (the documents carry no node revisions)")
	}
	return out
}

func statusChange(c diff.StatusChange) string { return c.From + " → " + c.To }

func edgeText(e diff.Edge) string {
	s := e.From + " " + e.Type + " " + e.To
	if e.State != "" && e.State != "active" {
		s += " (" + e.State + ")"
	}
	return s
}

// WriteDiffText writes a diff for a terminal: a headline and the
// figures, then every change, regressions first.
func WriteDiffText(w io.Writer, d *diff.Diff, colored bool) error {
	st := newStyle(colored)
	bw := bufio.NewWriter(w)
	head := diffTitle(d)
	if d.Worse > 0 {
		head = st.bad(head)
	} else {
		head = st.ok(head)
	}
	fmt.Fprintf(bw, "seg diff: %s\n", head)
	fmt.Fprintf(bw, "base: %s", sideName(d.Base))
	if d.Base.At != "" {
		fmt.Fprintf(bw, ", evaluated at %s", d.Base.At)
	}
	fmt.Fprintf(bw, "\nhead: %s", sideName(d.Head))
	if d.Head.At != "" {
		fmt.Fprintf(bw, ", evaluated at %s", d.Head.At)
	}
	bw.WriteString("\n\n")
	for _, f := range figures(d) {
		fmt.Fprintf(bw, "  %-13s %6s → %-6s %s\n", f[0], f[1], f[2], signed(f[1], f[2]))
	}
	section := func(title string, n int) bool {
		if n == 0 {
			return false
		}
		fmt.Fprintf(bw, "\n%s (%d):\n", st.bold(title), n)
		return true
	}
	reqLine := func(id, status, file string, line int, title string) {
		fmt.Fprintf(bw, "  %s  %s  %s  %s\n", st.id(id), st.status(status), st.pos(fmt.Sprintf("%s:%d", file, line)), title)
	}
	rq := d.Requirements
	var worse, other []diff.StatusChange
	for _, c := range rq.Changed {
		if c.Worse {
			worse = append(worse, c)
		} else {
			other = append(other, c)
		}
	}
	var newFailing []diff.Requirement
	for _, r := range rq.Added {
		if r.Status == "failing" {
			newFailing = append(newFailing, r)
		}
	}
	if section("got worse", len(worse)+len(newFailing)) {
		for _, c := range worse {
			fmt.Fprintf(bw, "  %s  %s → %s  %s  %s\n", st.id(c.ID), c.From, st.status(c.To), st.pos(fmt.Sprintf("%s:%d", c.File, c.Line)), c.Title)
			for _, r := range c.Reasons {
				fmt.Fprintf(bw, "      %s: %s [%s]\n", st.pos(at(r.File, r.Line, r.Column)), r.Message, r.Code)
			}
		}
		for _, r := range newFailing {
			fmt.Fprintf(bw, "  %s  new, %s  %s  %s\n", st.id(r.ID), st.status(r.Status), st.pos(fmt.Sprintf("%s:%d", r.File, r.Line)), r.Title)
			for _, x := range r.Reasons {
				fmt.Fprintf(bw, "      %s: %s [%s]\n", st.pos(at(x.File, x.Line, x.Column)), x.Message, x.Code)
			}
		}
	}
	if section("other status changes", len(other)) {
		for _, c := range other {
			fmt.Fprintf(bw, "  %s  %s → %s  %s  %s\n", st.id(c.ID), c.From, st.status(c.To), st.pos(fmt.Sprintf("%s:%d", c.File, c.Line)), c.Title)
		}
	}
	if section("requirements added", len(rq.Added)) {
		for _, r := range rq.Added {
			reqLine(r.ID, statusOr(r), r.File, r.Line, r.Title)
		}
	}
	if section("requirements removed", len(rq.Removed)) {
		for _, r := range rq.Removed {
			reqLine(r.ID, statusOr(r), r.File, r.Line, r.Title)
		}
	}
	diagLine := func(x diff.Diagnostic) {
		fmt.Fprintf(bw, "  %s: %s: %s [%s]\n", st.pos(at(x.File, x.Line, x.Column)), st.severity(x.Severity), x.Message, x.Code)
	}
	if section("new diagnostics", len(d.Diagnostics.New)) {
		for _, x := range d.Diagnostics.New {
			diagLine(x)
		}
	}
	if section("fixed diagnostics", len(d.Diagnostics.Fixed)) {
		for _, x := range d.Diagnostics.Fixed {
			diagLine(x)
		}
	}
	edgeLine := func(e diff.Edge, extra string) {
		fmt.Fprintf(bw, "  %s%s  %s\n", edgeText(e), extra, st.pos(fmt.Sprintf("%s:%d", e.File, e.Line)))
	}
	if section("links added", len(d.Links.Added)) {
		for _, e := range d.Links.Added {
			edgeLine(e, "")
		}
	}
	if section("links removed", len(d.Links.Removed)) {
		for _, e := range d.Links.Removed {
			edgeLine(e, "")
		}
	}
	if section("link states changed", len(d.Links.Changed)) {
		for _, e := range d.Links.Changed {
			edgeLine(diff.Edge{Type: e.Type, From: e.Edge.From, To: e.To, File: e.File, Line: e.Line}, fmt.Sprintf(": %s → %s", e.From, e.State))
		}
	}
	nodeLine := func(n diff.Node) {
		fmt.Fprintf(bw, "  %s  %s  %s  %s\n", st.id(n.ID), n.Kind, st.pos(fmt.Sprintf("%s:%d", n.File, n.Line)), n.Title)
	}
	for _, s := range []struct {
		title string
		nodes []diff.Node
	}{{"nodes added", d.Nodes.Added}, {"nodes removed", d.Nodes.Removed}, {"text changed", d.Nodes.TextChanged}} {
		if section(s.title, len(s.nodes)) {
			for _, n := range s.nodes {
				nodeLine(n)
			}
		}
	}
	if nc := notCompared(d); len(nc) > 0 {
		fmt.Fprintf(bw, "\nnot compared: %s\n", strings.Join(nc, "; "))
	}
	return bw.Flush()
}

func statusOr(r diff.Requirement) string {
	if r.Status != "" {
		return r.Status
	}
	return r.Verdict
}

// MarkdownLines is how many lines of a Markdown diff are shown open; the
// rest goes into collapsed <details> blocks, so a pull-request comment
// stays short whatever the change.
const MarkdownLines = 50

// markdownLimit keeps a comment under GitHub's 65,536 characters.
const markdownLimit = 60000

// mdTable is one table of a Markdown diff.
type mdTable struct {
	title  string
	header string // "| a | b |\n|---|---|"
	rows   []string
}

// WriteDiffMarkdown writes a diff as a pull-request comment: a headline,
// the figures, then one table per kind of change, regressions first. The
// first MarkdownLines lines are open; rows past them are in <details>
// blocks, and past about 60,000 characters rows are left out with a note
// (GitHub refuses longer comments).
func WriteDiffMarkdown(w io.Writer, d *diff.Diff) error {
	var b strings.Builder
	lines := 0
	emit := func(s string) {
		b.WriteString(s)
		b.WriteByte('\n')
		lines += strings.Count(s, "\n") + 1
	}
	icon := "✅"
	if d.Worse > 0 {
		icon = "❌"
	}
	emit(fmt.Sprintf("### %s seg trace diff: %s", icon, diffTitle(d)))
	emit("")
	when := ""
	if d.Head.At != "" {
		when = ", evaluated at " + d.Head.At
	}
	emit(fmt.Sprintf("Base %s, head %s%s.", mdCode(sideName(d.Base)), mdCode(sideName(d.Head)), when))
	emit("")
	emit("| | base | head | change |")
	emit("|---|--:|--:|--:|")
	for _, f := range figures(d) {
		emit(fmt.Sprintf("| %s | %s | %s | %s |", f[0], f[1], f[2], signed(f[1], f[2])))
	}

	pos := func(file string, line int) string { return mdEscape(fmt.Sprintf("%s:%d", file, line)) }
	req := func(id, title string) string {
		s := "`" + strings.ReplaceAll(id, "`", "'") + "`"
		if title != "" {
			s += " " + mdEscape(title)
		}
		return s
	}
	reasonText := func(rs []diff.Reason) string {
		if len(rs) == 0 {
			return ""
		}
		s := pos(rs[0].File, rs[0].Line) + ": " + mdEscape(rs[0].Message) + " `" + rs[0].Code + "`"
		if len(rs) > 1 {
			s += fmt.Sprintf(" (+%d more)", len(rs)-1)
		}
		return s
	}
	var tables []mdTable
	rq := d.Requirements
	worse := mdTable{title: "Got worse", header: "| requirement | was | now | where | first reason |\n|---|---|---|---|---|"}
	other := mdTable{title: "Other status changes", header: "| requirement | was | now | where |\n|---|---|---|---|"}
	for _, c := range rq.Changed {
		if c.Worse {
			worse.rows = append(worse.rows, fmt.Sprintf("| %s | %s | **%s** | %s | %s |", req(c.ID, c.Title), c.From, c.To, pos(c.File, c.Line), reasonText(c.Reasons)))
		} else {
			other.rows = append(other.rows, fmt.Sprintf("| %s | %s | %s | %s |", req(c.ID, c.Title), c.From, c.To, pos(c.File, c.Line)))
		}
	}
	for _, r := range rq.Added {
		if r.Status == "failing" {
			worse.rows = append(worse.rows, fmt.Sprintf("| %s | (new) | **%s** | %s | %s |", req(r.ID, r.Title), r.Status, pos(r.File, r.Line), reasonText(r.Reasons)))
		}
	}
	reqTable := func(title string, rs []diff.Requirement) mdTable {
		t := mdTable{title: title, header: "| requirement | status | where |\n|---|---|---|"}
		for _, r := range rs {
			t.rows = append(t.rows, fmt.Sprintf("| %s | %s | %s |", req(r.ID, r.Title), statusOr(r), pos(r.File, r.Line)))
		}
		return t
	}
	diagTable := func(title string, ds []diff.Diagnostic) mdTable {
		t := mdTable{title: title, header: "| where | severity | message | code |\n|---|---|---|---|"}
		for _, x := range ds {
			t.rows = append(t.rows, fmt.Sprintf("| %s | %s | %s | `%s` |", mdEscape(at(x.File, x.Line, x.Column)), x.Severity, mdEscape(x.Message), x.Code))
		}
		return t
	}
	edgeTable := func(title string, es []diff.Edge) mdTable {
		t := mdTable{title: title, header: "| link | state | where |\n|---|---|---|"}
		for _, e := range es {
			t.rows = append(t.rows, fmt.Sprintf("| %s %s %s | %s | %s |", req(e.From, ""), e.Type, req(e.To, ""), e.State, pos(e.File, e.Line)))
		}
		return t
	}
	changed := mdTable{title: "Link states changed", header: "| link | was | now | where |\n|---|---|---|---|"}
	for _, e := range d.Links.Changed {
		changed.rows = append(changed.rows, fmt.Sprintf("| %s %s %s | %s | %s | %s |", req(e.Edge.From, ""), e.Type, req(e.To, ""), e.From, e.State, pos(e.File, e.Line)))
	}
	nodeTable := func(title string, ns []diff.Node) mdTable {
		t := mdTable{title: title, header: "| node | kind | where |\n|---|---|---|"}
		for _, n := range ns {
			t.rows = append(t.rows, fmt.Sprintf("| %s | %s | %s |", req(n.ID, n.Title), n.Kind, pos(n.File, n.Line)))
		}
		return t
	}
	tables = append(tables, worse, other, reqTable("Requirements added", rq.Added), reqTable("Requirements removed", rq.Removed),
		diagTable("New diagnostics", d.Diagnostics.New), diagTable("Fixed diagnostics", d.Diagnostics.Fixed),
		edgeTable("Links added", d.Links.Added), edgeTable("Links removed", d.Links.Removed), changed,
		nodeTable("Text changed", d.Nodes.TextChanged), nodeTable("Nodes added", d.Nodes.Added), nodeTable("Nodes removed", d.Nodes.Removed))

	left := 0 // rows left out past the size limit
	for _, t := range tables {
		if len(t.rows) == 0 {
			continue
		}
		emit("")
		emit(fmt.Sprintf("#### %s (%d)", t.title, len(t.rows)))
		emit("")
		// Open rows while the comment is within MarkdownLines (a table
		// needs its header, 2 lines, and the blank line after it).
		open := min(len(t.rows), max(0, MarkdownLines-lines-3))
		if open > 0 {
			emit(t.header)
			for _, r := range t.rows[:open] {
				emit(r)
			}
		}
		if rest := t.rows[open:]; len(rest) > 0 {
			if open > 0 {
				emit("")
			}
			summary := fmt.Sprintf("%d more", len(rest))
			if open == 0 {
				summary = fmt.Sprintf("Show %d", len(rest))
			}
			emit("<details><summary>" + summary + "</summary>")
			emit("")
			emit(t.header)
			for i, r := range rest {
				if b.Len()+len(r) > markdownLimit {
					left += len(rest) - i
					break
				}
				emit(r)
			}
			emit("")
			emit("</details>")
		}
	}
	if nc := notCompared(d); len(nc) > 0 {
		emit("")
		emit("Not compared: " + mdEscape(strings.Join(nc, "; ")) + ".")
	}
	if left > 0 {
		emit("")
		emit(fmt.Sprintf("%d more rows are left out to keep this comment within GitHub's size limit; run `seg diff` to see them all.", left))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdCode is s as inline code.
func mdCode(s string) string {
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}
