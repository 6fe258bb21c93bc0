package report

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

//go:embed matrix/matrix.html.tmpl
var matrixHTMLSource string

//go:embed matrix/matrix.js
var matrixJS string

//go:embed matrix/matrix.css
var matrixCSS string

var matrixHTML = sync.OnceValue(func() *template.Template {
	// The functions are placeholders for parsing; WriteMatrixHTML binds
	// the real ones to each rendering.
	return template.Must(template.New("matrix").Funcs(matrixFuncs(linker{})).Parse(matrixHTMLSource))
})

// MatrixColumns are the columns of the HTML page, in their default order.
// Any other column name is an extra option kept as an attribute (the
// config's extra_options, a sphinx-needs option).
var MatrixColumns = []string{"id", "kind", "title", "verdict", "location", "refines", "refined-by", "tests", "implemented-by", "waivers", "reason", "level"}

// defaultColumns are shown when neither --columns nor [matrix] columns
// says otherwise: all but the level, which the tree view shows by
// indentation.
var defaultColumns = MatrixColumns[:len(MatrixColumns)-1]

// CheckColumns refuses a column list with an unknown or repeated name; an
// option is known when option says so. An empty list is the default.
func CheckColumns(cols []string, option func(string) bool) error {
	seen := map[string]bool{}
	for _, c := range cols {
		switch {
		case seen[c]:
			return fmt.Errorf("column %q is listed twice", c)
		case c == "":
			return fmt.Errorf("an empty column name")
		case !slices.Contains(MatrixColumns, c) && !option(c):
			return fmt.Errorf("unknown column %q (want %s, or an option the config allows: extra_options or a sphinx-needs option)", c, strings.Join(MatrixColumns, ", "))
		}
		seen[c] = true
	}
	return nil
}

// htmlMatrix is what the page template reads.
type htmlMatrix struct {
	*Matrix
	Title  string
	Counts check.Counts
	// Rows are the table rows of the page without JavaScript (inside
	// <noscript>, so a browser that runs the script never parses them),
	// written by plainRows: through the template they would take most of
	// the page's time at 50,000 requirements.
	Rows template.HTML
	// PlainLimit is the most requirements the table without JavaScript
	// holds; a larger tree's page leaves it out (and says so).
	PlainLimit  int
	Diagnostics []jsonDiagnostic
	Kinds       []bars
	Levels      []bars
	// Data is everything the script renders from, as JSON (with <, > and
	// & escaped, so it cannot end the script element).
	Data    template.JS
	CSS     template.CSS
	JS      template.JS
	PageTop template.CSS // the printed page's header, a CSS string
}

// bars is one line of the coverage summary: requirements by status.
type bars struct {
	Name                         string
	Total                        int
	Satisfied, Failing, Unproven int
	Verified, Implemented        Ratio // leaves; only by kind
}

func (b bars) Pct(n int) string {
	if b.Total == 0 {
		return "0"
	}
	return fmt.Sprintf("%.2f", float64(n)*100/float64(b.Total))
}

// htmlData is the JSON the page's script reads (matrix.js documents the
// layout of each array). Nodes are numbered: the requirements first, in
// row order, then every other node a row refers to, in the order met.
type htmlData struct {
	At      string   `json:"at"`
	Columns []string `json:"columns"` // shown at first
	All     []string `json:"all"`     // every column the page offers
	Files   []string `json:"files"`
	Hrefs   []string `json:"hrefs"` // per file: the link, {line} and {column} to fill
	Kinds   []string `json:"kinds"` // directives
	Codes   []string `json:"codes"`
	// Node table, one entry per node in each array.
	ID    []string `json:"id"`
	Title []string `json:"title"`
	Kind  []int    `json:"k"`    // index into Kinds
	Type  string   `json:"type"` // one letter per node: r t i o w n
	File  []int    `json:"f"`
	Line  []int    `json:"l"`
	Col   []int    `json:"c"`
	Body  []string `json:"body"`
	// Attrs holds [name, value, ...] by node, for the nodes that have any.
	Attrs map[int][]string `json:"attrs"`
	// Rows holds one array per requirement (matrix.js: "row layout").
	Rows  [][]any `json:"rows"`
	Diags [][]any `json:"diags"`
}

func matrixFuncs(lk linker) template.FuncMap {
	return template.FuncMap{
		"href": func(file string, line int) any {
			if lk.template == "" {
				// Made by seg from the base and an escaped path: trusted,
				// so that a file: base (no relative path) stays a link.
				return template.URL(lk.rel(file, line))
			}
			return lk.rel(file, line) // the user's template: html/template checks it
		},
		"plural": plural,
		"dict": func(kv ...any) map[string]any {
			m := map[string]any{}
			for i := 0; i+1 < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		},
	}
}

// WriteMatrixHTML writes the matrix as one self-contained HTML page: inline
// CSS and script, no network access (docs/matrix.md). The script renders
// the rows it shows from data embedded in the page (a few dozen at a time,
// as the reader scrolls), so 50,000 requirements load in seconds; without
// JavaScript the page is a plain table. html/template escapes the page;
// the script puts every text in as text.
func WriteMatrixHTML(w io.Writer, c *check.Check, m *Matrix, opt MatrixOptions) error {
	lk := linker{template: opt.LinkTemplate, base: opt.LinkBase, escaped: map[string]string{}}
	t, err := matrixHTML().Clone()
	if err != nil {
		return err
	}
	t.Funcs(matrixFuncs(lk))
	title := opt.Title
	page := htmlMatrix{Matrix: m, Title: title, Counts: c.Counts(), PlainLimit: plainLimit,
		CSS: template.CSS(matrixCSS), JS: template.JS(matrixJS)}
	if len(m.Rows) <= plainLimit {
		page.Rows = plainRows(m, lk)
	}
	top := "Traceability matrix"
	if title != "" {
		top += " · " + title
	}
	page.PageTop = template.CSS(cssString(top + " · evaluated " + m.At))
	wh := whereOf(c)
	for _, d := range c.Diagnostics {
		page.Diagnostics = append(page.Diagnostics, diagJSON(wh, d))
	}
	levels := rowLevels(m)
	page.Kinds, page.Levels = coverageBars(m, levels)
	data, err := json.Marshal(pageData(c, m, lk, levels, opt.Columns, page.Diagnostics))
	if err != nil {
		return err
	}
	page.Data = template.JS(data)
	bw := bufio.NewWriterSize(w, 1<<16)
	if err := t.Execute(bw, page); err != nil {
		return err
	}
	return bw.Flush()
}

// plainLimit is the largest tree whose page carries the table without
// JavaScript. Above it the table would be some 40 % of the file, read and
// tokenised by every browser that runs the script, for a table too long
// to use without filters: seg matrix --format markdown or csv gives it.
const plainLimit = 5000

// plainRows writes the rows of the table without JavaScript: ID (the
// row's anchor), kind, title, status, location, parents (links to their
// rows), tests with their outcomes, first reason. End tags that HTML lets
// a table row leave out are left out: they would be a tenth of the page.
func plainRows(m *Matrix, lk linker) template.HTML {
	var b strings.Builder
	esc := template.HTMLEscapeString
	href := func(file string, line int) string {
		h := lk.rel(file, line)
		if lk.template != "" {
			h = safeHref(h)
		}
		return esc(h)
	}
	for i := range m.Rows {
		r := &m.Rows[i]
		id := esc(r.ID)
		b.WriteString("\n<tr id=\"" + id + "\"><td>" + id + "<td>" + esc(r.Kind) + "<td>" + esc(r.Title) +
			"<td><span class=\"b " + r.Status + "\">" + r.Status + "</span><td><a href=\"" + href(r.File, r.Line) + "\">" +
			esc(r.File) + ":" + strconv.Itoa(r.Line) + "</a><td>")
		for j, l := range r.Refines {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("<a href=\"#" + esc(l.ID) + "\">" + esc(l.ID) + "</a>")
		}
		b.WriteString("<td>")
		for j, t := range r.Tests {
			if j > 0 {
				b.WriteString("; ")
			}
			b.WriteString(esc(t.ID + stateSuffix(t.State) + ":"))
			if len(t.Outcomes) == 0 {
				b.WriteString(" no outcomes")
			}
			for k, o := range t.Outcomes {
				if k > 0 {
					b.WriteByte(',')
				}
				b.WriteString(" " + o.Result)
				switch o.Status {
				case "excluded", "excused":
					b.WriteString(" (" + o.Status + ")")
				}
			}
		}
		b.WriteString("<td>")
		if len(r.Reasons) > 0 {
			x := r.Reasons[0]
			b.WriteString("<a href=\"" + href(x.File, x.Line) + "\">" + esc(x.File) + ":" + strconv.Itoa(x.Line) + "</a>: " +
				esc(x.Message) + " [" + esc(x.Code) + "]")
		}
	}
	return template.HTML(b.String())
}

// cssString quotes s as a CSS string.
func cssString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || r == '<' || r == '>' || r == '&':
			fmt.Fprintf(&b, "\\%x ", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// levelInfo is where each row sits in the refinement hierarchy: its level
// (1 for a requirement that refines nothing) and its parent in the tree
// view (the parent through which it was first reached, -1 at the top).
type levelInfo struct {
	level, parent []int
}

// rowLevels walks the refinement hierarchy breadth first from the
// requirements that refine nothing, in ID order; a requirement reached
// only through a cycle starts a tree of its own (the smallest ID first).
// A requirement with several parents sits under the first that reaches it
// and is shown under the others as a reference.
func rowLevels(m *Matrix) levelInfo {
	n := len(m.Rows)
	index := make(map[string]int, n)
	for i, r := range m.Rows {
		index[r.ID] = i
	}
	li := levelInfo{level: make([]int, n), parent: make([]int, n)}
	for i := range li.parent {
		li.parent[i] = -1
	}
	var queue []int
	walk := func() {
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			for _, ch := range m.Rows[p].RefinedBy {
				c, ok := index[ch.ID]
				if ok && li.level[c] == 0 {
					li.level[c] = li.level[p] + 1
					li.parent[c] = p
					queue = append(queue, c)
				}
			}
		}
	}
	for i, r := range m.Rows {
		if len(r.Refines) == 0 {
			li.level[i] = 1
			queue = append(queue, i)
		}
	}
	walk()
	for i := range m.Rows {
		if li.level[i] == 0 {
			li.level[i] = 1
			queue = append(queue, i)
			walk()
		}
	}
	return li
}

// coverageBars counts requirements by status, per kind and per level.
func coverageBars(m *Matrix, li levelInfo) (kinds, levels []bars) {
	byKind := map[string]*bars{}
	var byLevel []*bars
	add := func(b *bars, status string) {
		b.Total++
		switch status {
		case "satisfied":
			b.Satisfied++
		case "failing":
			b.Failing++
		default:
			b.Unproven++
		}
	}
	for i, r := range m.Rows {
		k := byKind[r.Kind]
		if k == nil {
			k = &bars{Name: r.Kind}
			byKind[r.Kind] = k
		}
		add(k, r.Status)
		for len(byLevel) < li.level[i] {
			byLevel = append(byLevel, &bars{Name: fmt.Sprintf("level %d", len(byLevel)+1)})
		}
		add(byLevel[li.level[i]-1], r.Status)
	}
	for _, kc := range m.Coverage.ByKind {
		b := byKind[kc.Kind]
		b.Verified, b.Implemented = kc.LeavesVerified, kc.LeavesImplemented
		kinds = append(kinds, *b)
	}
	for _, b := range byLevel {
		levels = append(levels, *b)
	}
	return kinds, levels
}

var stateCodes = map[string]int{"active": 0, "suspect": 1, "retired": 2, "invalid": 3}
var resultCodes = map[string]int{"passed": 0, "failed": 1, "skipped": 2, "error": 3, "invalid": 4}
var standingCodes = map[evaluate.Standing]int{evaluate.Counted: 0, evaluate.Excused: 1, evaluate.Against: 2, evaluate.Invalid: 3, evaluate.Skipped: 4, evaluate.Excluded: 5}
var statusCodes = map[string]int{"satisfied": 0, "failing": 1, "unproven": 2}

// pageData builds the page's JSON.
func pageData(c *check.Check, m *Matrix, lk linker, li levelInfo, cols []string, diags []jsonDiagnostic) htmlData {
	d := htmlData{At: m.At, Columns: cols, All: slices.Clone(MatrixColumns), Files: []string{}, Hrefs: []string{}, Kinds: []string{}, Codes: []string{},
		Rows: make([][]any, len(m.Rows)), Diags: [][]any{}, Attrs: map[int][]string{}}
	if len(d.Columns) == 0 {
		d.Columns = defaultColumns
	}
	for _, col := range d.Columns {
		if !slices.Contains(d.All, col) {
			d.All = append(d.All, col)
		}
	}
	pb := &pageBuilder{d: &d, lk: lk, wh: whereOf(c), bodies: parsedNodes(c), nodes: map[*graph.Node]int{},
		fileIndex: interner(&d.Files), kind: interner(&d.Kinds), code: interner(&d.Codes)}
	reqs := c.Requirements()
	for _, r := range reqs {
		pb.node(r.Node)
	}
	for i, r := range reqs {
		d.Rows[i] = pb.row(r.Verdict, li.level[i], li.parent[i])
	}
	policyColumn(&d, m, len(cols) == 0)
	d.Type = pb.types.String()
	for _, x := range diags {
		sev := 0
		if x.Severity == "warning" {
			sev = 1
		}
		d.Diags = append(d.Diags, []any{pb.code(x.Code), sev, x.Message, pb.file(x.File), x.Line, x.Column})
	}
	return d
}

// pageBuilder fills the page data: each node, file, kind and code is
// written once and referred to by its index.
type pageBuilder struct {
	d      *htmlData
	lk     linker
	wh     where
	bodies map[source.Pos]*parser.Node
	nodes  map[*graph.Node]int // index in d.ID
	types  strings.Builder     // a letter per node, its kind

	fileIndex, kind, code func(string) int
}

// file is the index of file f, whose link it adds with it.
func (pb *pageBuilder) file(f string) int {
	d := pb.d
	i := pb.fileIndex(f)
	if i == len(d.Hrefs) {
		href := ""
		switch {
		case f == "":
		case pb.lk.template == "":
			href = pb.lk.pattern(f) // made by seg: a relative path or a file: URL
		default:
			href = safeHref(pb.lk.pattern(f))
		}
		d.Hrefs = append(d.Hrefs, href)
	}
	return i
}

// node is the index of n, which it adds, with its place and body, when
// it is new.
func (pb *pageBuilder) node(n *graph.Node) int {
	i, ok := pb.nodes[n]
	if ok {
		return i
	}
	d := pb.d
	i = len(d.ID)
	pb.nodes[n] = i
	p := pb.wh.at(n.Pos())
	d.ID = append(d.ID, n.ID())
	d.Title = append(d.Title, n.Title())
	d.Kind = append(d.Kind, pb.kind(n.Directive()))
	pb.types.WriteByte("?rtiown"[n.Kind()])
	d.File = append(d.File, pb.file(p.Filename))
	d.Line = append(d.Line, p.Line)
	d.Col = append(d.Col, p.Column)
	body := ""
	switch n.Kind() {
	case parser.Requirement, parser.Outcome, parser.Waiver, parser.Need:
		// Test and implementation bodies are theirs to read at the
		// source; a requirement's text, an outcome's failure message
		// and a waiver's justification are what a review reads here.
		if pn := pb.bodies[n.Pos()]; pn != nil {
			body = pn.Body
		}
	}
	d.Body = append(d.Body, body)
	for _, a := range n.Attrs() {
		d.Attrs[i] = append(d.Attrs[i], a.Name, a.Value)
	}
	return i
}

// row is the row of a requirement with verdict v at level in the tree,
// under the row parent.
func (pb *pageBuilder) row(v evaluate.Verdict, level, parent int) []any {
	leaf := 0
	if v.Leaf {
		leaf = 1
	}
	// Refined by (position 5) is left for the script to derive from
	// the refines links: the same links, written once. The evidence
	// (tests, implements and notes) is one JSON string, parsed by the
	// script for the rows it needs: millions of small arrays parsed up
	// front would be most of the load time of a large tree. The blocking
	// reasons are not in it but at position 8 (7 holds the place of the
	// implements): the search index and the reason column read them for
	// every row, and parsing every row's evidence for them made the
	// first text filter of 50,000 requirements take half a second.
	ev, err := json.Marshal([]any{pb.tests(v.Verifies), pb.links(v.Implements), pb.reasons(v.Reasons, false)})
	if err != nil {
		panic(err) // ints and strings only
	}
	return []any{statusCodes[v.Status.String()], leaf, level, parent, pb.links(v.Refines), 0, string(ev), 0, pb.reasons(v.Reasons, true)}
}

// link is the node n that edge e links to: its index, the link's state
// and where the link is written.
func (pb *pageBuilder) link(n *graph.Node, e *graph.Edge) []any {
	i := pb.node(n)
	p := pb.wh.at(e.Pos())
	return []any{i, stateCodes[e.State().String()], pb.file(p.Filename), p.Line, p.Column}
}

// links are the linked nodes of ls, each with its edge.
func (pb *pageBuilder) links(ls []evaluate.Link) []any {
	out := []any{}
	for _, l := range ls {
		out = append(out, pb.link(l.Node, l.Edge))
	}
	return out
}

// reasons are those of rs that block (or do not block) the verdict.
func (pb *pageBuilder) reasons(rs []evaluate.Reason, blocking bool) []any {
	out := []any{}
	for _, r := range rs {
		if r.Blocking == blocking {
			p := pb.wh.at(r.Pos)
			out = append(out, []any{pb.code(r.Code.Name), r.Message, pb.file(p.Filename), p.Line, p.Column})
		}
	}
	return out
}

// tests are a requirement's verifying tests, each with its outcomes.
func (pb *pageBuilder) tests(verifies []evaluate.TestEvidence) []any {
	tests := []any{}
	for _, te := range verifies {
		outs := []any{}
		for _, ev := range te.Outcomes {
			outs = append(outs, pb.outcome(ev))
		}
		tests = append(tests, append(pb.link(te.Node, te.Edge), outs))
	}
	return tests
}

// outcome is an outcome of a test, its standing and the waivers that name
// it.
func (pb *pageBuilder) outcome(ev evaluate.OutcomeEvidence) []any {
	o := ev.Outcome
	waiver, why := -1, -1
	if ev.Waiver != nil {
		waiver = pb.node(ev.Waiver)
	}
	if ev.Why != nil {
		why = pb.code(ev.Why.Name)
	}
	ws := []any{}
	for _, we := range ev.Waivers {
		in := 0
		if we.InForce {
			in = 1
		}
		// Why one is not in force is evaluate's to say (expired, stale,
		// future, unreviewed, a bad date); the page shows its words.
		lapse := ""
		if !we.InForce {
			lapse = evaluate.WaiverLapse(we)
		}
		ws = append(ws, []any{pb.node(we.Waiver), in, we.Waiver.ExpiresText(), lapse})
	}
	return []any{pb.node(o), resultCodes[o.Result().String()], standingCodes[ev.Standing], waiver, why, o.Config(), ws}
}

// interner numbers the strings it is given in the order met, appending
// each new one to list.
func interner(list *[]string) func(string) int {
	index := map[string]int{}
	return func(s string) int {
		i, ok := index[s]
		if !ok {
			i = len(*list)
			index[s] = i
			*list = append(*list, s)
		}
		return i
	}
}

// pattern is file's link with "{line}" and "{column}" left for the script
// to fill in.
func (l linker) pattern(file string) string {
	if l.template == "" {
		return l.base + l.path(file) + "#L{line}"
	}
	return strings.ReplaceAll(l.template, "{file}", l.path(file))
}

// safeHref refuses the links html/template refuses in the table: a scheme
// other than http, https or mailto (javascript:, say) becomes "#ZgotmplZ",
// as html/template makes it.
func safeHref(href string) string {
	if i := strings.IndexAny(href, ":/?#"); i > 0 && href[i] == ':' {
		switch strings.ToLower(strings.TrimSpace(href[:i])) {
		case "http", "https", "mailto":
		default:
			return "#ZgotmplZ"
		}
	}
	return href
}

// parsedNodes maps each position a node starts at to the parsed node, for
// what the graph does not keep (the body).
func parsedNodes(c *check.Check) map[source.Pos]*parser.Node {
	m := map[source.Pos]*parser.Node{}
	for _, f := range c.Parsed {
		if f == nil {
			continue
		}
		for i := range f.Nodes {
			m[f.Nodes[i].Pos] = &f.Nodes[i]
		}
	}
	for i := range c.Outcomes {
		m[c.Outcomes[i].Pos] = &c.Outcomes[i]
	}
	return m
}

// policyColumn adds the evidence policy each requirement was decided
// under as its attribute "policy" (the requirements are the first nodes,
// in row order), and the column, shown unless the columns were chosen,
// when any row has one.
func policyColumn(d *htmlData, m *Matrix, shown bool) {
	if !m.hasPolicies() {
		return
	}
	for i := range m.Rows {
		if p := m.Rows[i].Policy; p != "" {
			d.Attrs[i] = append(d.Attrs[i], "policy", p)
		}
	}
	if !slices.Contains(d.All, "policy") {
		d.All = append(d.All, "policy")
	}
	if shown && !slices.Contains(d.Columns, "policy") {
		d.Columns = append(slices.Clone(d.Columns), "policy")
	}
}
