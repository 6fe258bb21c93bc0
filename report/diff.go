package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/diff"
	"github.com/seg-trace/seg/revision"
)

// Evaluation is one side of seg diff made from a run: exactly what seg
// check --format json and seg graph --format json would say (the same
// fields, read the same way), with each node's revision.
func Evaluation(c *check.Check, label string) *diff.Evaluation {
	wh := whereOf(c)
	e := &diff.Evaluation{Label: label, At: Date(c.At), HasDiagnostics: true, HasGraph: true, TextKind: "revision", HasEvidence: true}
	for _, r := range c.Requirements() {
		p := wh.at(r.Node.Pos())
		dr := diff.Requirement{ID: r.Node.ID(), Kind: r.Node.Directive(), Title: r.Node.Title(), File: p.Filename, Line: p.Line,
			Verdict: verdictWord(r.Verdict.Satisfied), Status: r.Verdict.Status.String(), Evidence: countedEvidence(wh, c, &r.Verdict)}
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
			File: p.Filename, Line: p.Line, Text: revision.String(n.Revision())})
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
	var parts []string
	switch {
	case d.Worse == 1:
		parts = append(parts, "1 requirement got worse")
	case d.Worse > 1:
		parts = append(parts, fmt.Sprintf("%d requirements got worse", d.Worse))
	}
	switch {
	case d.LostRequirements == 1:
		parts = append(parts, "1 requirement lost evidence")
	case d.LostRequirements > 1:
		parts = append(parts, fmt.Sprintf("%d requirements lost evidence", d.LostRequirements))
	}
	switch {
	case d.Fell == 1:
		parts = append(parts, "1 coverage measure fell")
	case d.Fell > 1:
		parts = append(parts, fmt.Sprintf("%d coverage measures fell", d.Fell))
	}
	if len(parts) == 0 {
		return "no requirement got worse"
	}
	return strings.Join(parts, ", ")
}

// lostText is a piece of lost evidence, without where.
func lostText(l diff.Lost) string {
	s := l.Kind + " " + l.ID
	if l.Via != "" {
		s += " (of test " + l.Via + ")"
	}
	return s
}

// shareText is a share as "3/4 (75.0%)".
func shareText(s diff.Share) string { return fmt.Sprintf("%d/%d (%.1f%%)", s.Count, s.Of, s.Percent()) }

// fallen are the coverage measures that fell.
func fallen(d *diff.Diff) []diff.Measure {
	var out []diff.Measure
	for _, m := range d.Coverage {
		if m.Fell {
			out = append(out, m)
		}
	}
	return out
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
	if !d.Compared.Evidence {
		out = append(out, "lost evidence (a side's requirements carry no evidence[]: write it with this seg)")
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
	t := diffText{bw: bufio.NewWriter(w), st: newStyle(colored)}
	t.head(d)
	rq := d.Requirements
	worse, other, newFailing := splitChanges(rq)
	t.regressions(worse, newFailing)
	if t.section("lost evidence", len(d.Lost)) {
		for _, l := range d.Lost {
			fmt.Fprintf(t.bw, "  %s  %s: %s  %s → %s  %s\n", t.st.id(l.Requirement), lostText(l), t.st.bad(l.Now),
				t.st.pos(fmt.Sprintf("%s:%d", l.File, l.Line)), t.st.pos(fmt.Sprintf("%s:%d", l.HeadFile, l.HeadLine)), l.Title)
		}
	}
	if fell := fallen(d); t.section("coverage fell", len(fell)) {
		for _, m := range fell {
			fmt.Fprintf(t.bw, "  %s  %s → %s\n", m.Name(), shareText(m.Base), t.st.bad(shareText(m.Head)))
		}
	}
	if t.section("other status changes", len(other)) {
		for _, c := range other {
			t.change(c)
		}
	}
	t.requirements("requirements added", rq.Added)
	t.requirements("requirements removed", rq.Removed)
	t.diagnostics("new diagnostics", d.Diagnostics.New)
	t.diagnostics("fixed diagnostics", d.Diagnostics.Fixed)
	t.links(d.Links)
	t.nodes("nodes added", d.Nodes.Added)
	t.nodes("nodes removed", d.Nodes.Removed)
	t.nodes("text changed", d.Nodes.TextChanged)
	if nc := notCompared(d); len(nc) > 0 {
		fmt.Fprintf(t.bw, "\nnot compared: %s\n", strings.Join(nc, "; "))
	}
	return t.bw.Flush()
}

// splitChanges parts a diff's requirements into the status changes that
// are worse, the other status changes, and the added requirements that
// fail (each in the diff's order).
func splitChanges(rq diff.RequirementDiff) (worse, other []diff.StatusChange, newFailing []diff.Requirement) {
	for _, c := range rq.Changed {
		if c.Worse {
			worse = append(worse, c)
		} else {
			other = append(other, c)
		}
	}
	for _, r := range rq.Added {
		if r.Status == "failing" {
			newFailing = append(newFailing, r)
		}
	}
	return worse, other, newFailing
}

// diffText writes a diff for a terminal.
type diffText struct {
	bw *bufio.Writer
	st style
}

// head writes the headline, the two sides and the figures.
func (t diffText) head(d *diff.Diff) {
	bw, st := t.bw, t.st
	head := diffTitle(d)
	if d.Failed() {
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
	bw.WriteString("\n")
	for _, n := range d.Notes {
		fmt.Fprintf(bw, "note: %s\n", n)
	}
	bw.WriteString("\n")
	for _, f := range figures(d) {
		fmt.Fprintf(bw, "  %-13s %6s → %-6s %s\n", f[0], f[1], f[2], signed(f[1], f[2]))
	}
}

// section writes the heading of a section of n lines; it writes nothing
// and returns false when n is 0.
func (t diffText) section(title string, n int) bool {
	if n == 0 {
		return false
	}
	fmt.Fprintf(t.bw, "\n%s (%d):\n", t.st.bold(title), n)
	return true
}

// regressions writes the requirements that got worse and the new ones
// that fail, each with its reasons.
func (t diffText) regressions(worse []diff.StatusChange, newFailing []diff.Requirement) {
	if !t.section("got worse", len(worse)+len(newFailing)) {
		return
	}
	for _, c := range worse {
		t.change(c)
		t.reasons(c.Reasons)
	}
	for _, r := range newFailing {
		fmt.Fprintf(t.bw, "  %s  new, %s  %s  %s\n", t.st.id(r.ID), t.st.status(r.Status), t.st.pos(fmt.Sprintf("%s:%d", r.File, r.Line)), r.Title)
		t.reasons(r.Reasons)
	}
}

// change writes a requirement whose status changed.
func (t diffText) change(c diff.StatusChange) {
	st := t.st
	fmt.Fprintf(t.bw, "  %s  %s → %s  %s  %s\n", st.id(c.ID), c.From, st.status(c.To), st.pos(fmt.Sprintf("%s:%d", c.File, c.Line)), c.Title)
}

// reasons writes a requirement's reasons, under it.
func (t diffText) reasons(rs []diff.Reason) {
	for _, r := range rs {
		fmt.Fprintf(t.bw, "      %s: %s [%s]\n", t.st.pos(at(r.File, r.Line, r.Column)), r.Message, r.Code)
	}
}

// requirements writes a section of requirements added or removed.
func (t diffText) requirements(title string, rs []diff.Requirement) {
	if !t.section(title, len(rs)) {
		return
	}
	st := t.st
	for _, r := range rs {
		fmt.Fprintf(t.bw, "  %s  %s  %s  %s\n", st.id(r.ID), st.status(statusOr(r)), st.pos(fmt.Sprintf("%s:%d", r.File, r.Line)), r.Title)
	}
}

// diagnostics writes a section of diagnostics new or fixed.
func (t diffText) diagnostics(title string, ds []diff.Diagnostic) {
	if !t.section(title, len(ds)) {
		return
	}
	st := t.st
	for _, x := range ds {
		fmt.Fprintf(t.bw, "  %s: %s: %s [%s]\n", st.pos(at(x.File, x.Line, x.Column)), st.severity(x.Severity), x.Message, x.Code)
	}
}

// links writes the links added, removed, and those whose state changed.
func (t diffText) links(l diff.LinkDiff) {
	if t.section("links added", len(l.Added)) {
		for _, e := range l.Added {
			t.edge(e, "")
		}
	}
	if t.section("links removed", len(l.Removed)) {
		for _, e := range l.Removed {
			t.edge(e, "")
		}
	}
	if t.section("link states changed", len(l.Changed)) {
		for _, e := range l.Changed {
			t.edge(diff.Edge{Type: e.Type, From: e.Edge.From, To: e.To, File: e.File, Line: e.Line}, fmt.Sprintf(": %s → %s", e.From, e.State))
		}
	}
}

// edge writes a link, extra after it, and where it is written.
func (t diffText) edge(e diff.Edge, extra string) {
	fmt.Fprintf(t.bw, "  %s%s  %s\n", edgeText(e), extra, t.st.pos(fmt.Sprintf("%s:%d", e.File, e.Line)))
}

// nodes writes a section of nodes added, removed or with new text.
func (t diffText) nodes(title string, ns []diff.Node) {
	if !t.section(title, len(ns)) {
		return
	}
	st := t.st
	for _, n := range ns {
		fmt.Fprintf(t.bw, "  %s  %s  %s  %s\n", st.id(n.ID), n.Kind, st.pos(fmt.Sprintf("%s:%d", n.File, n.Line)), n.Title)
	}
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
	var m mdComment
	m.head(d)
	left := 0 // rows left out past the size limit
	for _, t := range diffTables(d) {
		left += m.table(t)
	}
	if nc := notCompared(d); len(nc) > 0 {
		m.emit("")
		m.emit("Not compared: " + mdEscape(strings.Join(nc, "; ")) + ".")
	}
	if left > 0 {
		m.emit("")
		m.emit(fmt.Sprintf("%d more rows are left out to keep this comment within GitHub's size limit; run `seg diff` to see them all.", left))
	}
	_, err := io.WriteString(w, m.b.String())
	return err
}

// mdComment is a Markdown comment being written, and its lines so far.
type mdComment struct {
	b     strings.Builder
	lines int
}

// emit writes s and a line end.
func (m *mdComment) emit(s string) {
	m.b.WriteString(s)
	m.b.WriteByte('\n')
	m.lines += strings.Count(s, "\n") + 1
}

// head writes the headline, the two sides and the table of figures.
func (m *mdComment) head(d *diff.Diff) {
	icon := "✅"
	if d.Failed() {
		icon = "❌"
	}
	m.emit(fmt.Sprintf("### %s seg trace diff: %s", icon, diffTitle(d)))
	m.emit("")
	when := ""
	if d.Head.At != "" {
		when = ", evaluated at " + d.Head.At
	}
	m.emit(fmt.Sprintf("Base %s, head %s%s.", mdCode(sideName(d.Base)), mdCode(sideName(d.Head)), when))
	for _, n := range d.Notes {
		m.emit("")
		m.emit("Note: " + mdEscape(n))
	}
	m.emit("")
	m.emit("| | base | head | change |")
	m.emit("|---|--:|--:|--:|")
	for _, f := range figures(d) {
		m.emit(fmt.Sprintf("| %s | %s | %s | %s |", f[0], f[1], f[2], signed(f[1], f[2])))
	}
}

// table writes t, if it has rows, with as many rows open as the comment's
// first MarkdownLines lines hold and the rest in a <details> block; it
// returns how many rows it left out to keep within markdownLimit.
func (m *mdComment) table(t mdTable) (left int) {
	if len(t.rows) == 0 {
		return 0
	}
	m.emit("")
	m.emit(fmt.Sprintf("#### %s (%d)", t.title, len(t.rows)))
	m.emit("")
	// Open rows while the comment is within MarkdownLines (a table
	// needs its header, 2 lines, and the blank line after it).
	open := min(len(t.rows), max(0, MarkdownLines-m.lines-3))
	if open > 0 {
		m.emit(t.header)
		for _, r := range t.rows[:open] {
			m.emit(r)
		}
	}
	rest := t.rows[open:]
	if len(rest) == 0 {
		return 0
	}
	if open > 0 {
		m.emit("")
	}
	summary := fmt.Sprintf("%d more", len(rest))
	if open == 0 {
		summary = fmt.Sprintf("Show %d", len(rest))
	}
	m.emit("<details><summary>" + summary + "</summary>")
	m.emit("")
	m.emit(t.header)
	for i, r := range rest {
		if m.b.Len()+len(r) > markdownLimit {
			left = len(rest) - i
			break
		}
		m.emit(r)
	}
	m.emit("")
	m.emit("</details>")
	return left
}

// diffTables are the tables of a Markdown diff, in the order they are
// written (empty ones too).
func diffTables(d *diff.Diff) []mdTable {
	rq := d.Requirements
	worse, other := statusTables(rq)
	lost := mdTable{title: "Lost evidence", header: "| requirement | evidence | now | was at | now at |\n|---|---|---|---|---|"}
	for _, l := range d.Lost {
		lost.rows = append(lost.rows, fmt.Sprintf("| %s | %s | **%s** | %s | %s |", mdRequirement(l.Requirement, l.Title), mdEscape(lostText(l)),
			mdEscape(l.Now), mdPos(l.File, l.Line), mdPos(l.HeadFile, l.HeadLine)))
	}
	fell := mdTable{title: "Coverage fell", header: "| measure | base | head |\n|---|--:|--:|"}
	for _, m := range fallen(d) {
		fell.rows = append(fell.rows, fmt.Sprintf("| %s | %s | **%s** |", mdEscape(m.Name()), shareText(m.Base), shareText(m.Head)))
	}
	return []mdTable{worse, lost, fell, other, mdRequirements("Requirements added", rq.Added), mdRequirements("Requirements removed", rq.Removed),
		mdDiagnostics("New diagnostics", d.Diagnostics.New), mdDiagnostics("Fixed diagnostics", d.Diagnostics.Fixed),
		mdEdges("Links added", d.Links.Added), mdEdges("Links removed", d.Links.Removed), mdEdgeChanges(d.Links.Changed),
		mdNodes("Text changed", d.Nodes.TextChanged), mdNodes("Nodes added", d.Nodes.Added), mdNodes("Nodes removed", d.Nodes.Removed)}
}

// statusTables are the table of requirements that got worse (new failing
// ones among them) and the table of other status changes.
func statusTables(rq diff.RequirementDiff) (worse, other mdTable) {
	worse = mdTable{title: "Got worse", header: "| requirement | was | now | where | first reason |\n|---|---|---|---|---|"}
	other = mdTable{title: "Other status changes", header: "| requirement | was | now | where |\n|---|---|---|---|"}
	worseChanges, otherChanges, newFailing := splitChanges(rq)
	for _, c := range worseChanges {
		worse.rows = append(worse.rows, fmt.Sprintf("| %s | %s | **%s** | %s | %s |", mdRequirement(c.ID, c.Title), c.From, c.To, mdPos(c.File, c.Line), mdReasons(c.Reasons)))
	}
	for _, r := range newFailing {
		worse.rows = append(worse.rows, fmt.Sprintf("| %s | (new) | **%s** | %s | %s |", mdRequirement(r.ID, r.Title), r.Status, mdPos(r.File, r.Line), mdReasons(r.Reasons)))
	}
	for _, c := range otherChanges {
		other.rows = append(other.rows, fmt.Sprintf("| %s | %s | %s | %s |", mdRequirement(c.ID, c.Title), c.From, c.To, mdPos(c.File, c.Line)))
	}
	return worse, other
}

// mdRequirements is a table of requirements added or removed.
func mdRequirements(title string, rs []diff.Requirement) mdTable {
	t := mdTable{title: title, header: "| requirement | status | where |\n|---|---|---|"}
	for _, r := range rs {
		t.rows = append(t.rows, fmt.Sprintf("| %s | %s | %s |", mdRequirement(r.ID, r.Title), statusOr(r), mdPos(r.File, r.Line)))
	}
	return t
}

// mdDiagnostics is a table of diagnostics new or fixed.
func mdDiagnostics(title string, ds []diff.Diagnostic) mdTable {
	t := mdTable{title: title, header: "| where | severity | message | code |\n|---|---|---|---|"}
	for _, x := range ds {
		t.rows = append(t.rows, fmt.Sprintf("| %s | %s | %s | `%s` |", mdEscape(at(x.File, x.Line, x.Column)), x.Severity, mdEscape(x.Message), x.Code))
	}
	return t
}

// mdEdges is a table of links added or removed.
func mdEdges(title string, es []diff.Edge) mdTable {
	t := mdTable{title: title, header: "| link | state | where |\n|---|---|---|"}
	for _, e := range es {
		t.rows = append(t.rows, fmt.Sprintf("| %s %s %s | %s | %s |", mdRequirement(e.From, ""), e.Type, mdRequirement(e.To, ""), e.State, mdPos(e.File, e.Line)))
	}
	return t
}

// mdEdgeChanges is the table of links whose state changed.
func mdEdgeChanges(es []diff.EdgeChange) mdTable {
	t := mdTable{title: "Link states changed", header: "| link | was | now | where |\n|---|---|---|---|"}
	for _, e := range es {
		t.rows = append(t.rows, fmt.Sprintf("| %s %s %s | %s | %s | %s |", mdRequirement(e.Edge.From, ""), e.Type, mdRequirement(e.To, ""), e.From, e.State, mdPos(e.File, e.Line)))
	}
	return t
}

// mdNodes is a table of nodes added, removed or with new text.
func mdNodes(title string, ns []diff.Node) mdTable {
	t := mdTable{title: title, header: "| node | kind | where |\n|---|---|---|"}
	for _, n := range ns {
		t.rows = append(t.rows, fmt.Sprintf("| %s | %s | %s |", mdRequirement(n.ID, n.Title), n.Kind, mdPos(n.File, n.Line)))
	}
	return t
}

// mdPos is file:line, escaped for Markdown.
func mdPos(file string, line int) string { return mdEscape(fmt.Sprintf("%s:%d", file, line)) }

// mdRequirement is a node's ID as code, then its title, if any.
func mdRequirement(id, title string) string {
	s := mdCode(id)
	if title != "" {
		s += " " + mdEscape(title)
	}
	return s
}

// mdReasons is the first of a requirement's reasons and how many more
// there are.
func mdReasons(rs []diff.Reason) string {
	if len(rs) == 0 {
		return ""
	}
	s := mdPos(rs[0].File, rs[0].Line) + ": " + mdEscape(rs[0].Message) + " `" + rs[0].Code + "`"
	if len(rs) > 1 {
		s += fmt.Sprintf(" (+%d more)", len(rs)-1)
	}
	return s
}

// mdCode is s as inline code.
func mdCode(s string) string {
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}
