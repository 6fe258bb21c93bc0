package report

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
)

// The traceability matrix (seg matrix, docs/matrix.md): one row per
// requirement in ID order, with what it refines, what refines it, the tests
// that verify it and their outcomes, what implements it, the waivers in
// force on its tests' outcomes, its verdict and the first blocking reason,
// under coverage figures. Every format (Markdown, CSV, HTML, JSON) renders
// the same Matrix value, built from the same Check as seg check, so the
// matrix's verdicts are check's verdicts.

// MatrixSchema names the JSON document's schema.
const MatrixSchema = "seg-matrix/1"

// MatrixOptions say how the matrix links back to the sources.
type MatrixOptions struct {
	// LinkTemplate, when set, turns every ID and location into a link:
	// {file} is replaced by the root-relative path (each segment
	// path-escaped), {line} by the line and {column} by the column.
	LinkTemplate string
	// LinkBase prefixes the relative links the HTML page uses without a
	// template ("../docs/" style, with a trailing slash, or empty for
	// links relative to the root).
	LinkBase string
	// Columns are the HTML page's columns, in order (CheckColumns);
	// empty means the default.
	Columns []string
	// Title names the tree in the HTML page's heading and printed page
	// headers ("" for none).
	Title string
}

// Matrix is the whole matrix (schema seg-matrix/1).
type Matrix struct {
	Schema      string          `json:"schema"`
	At          string          `json:"at"`
	Coverage    Coverage        `json:"coverage"`
	Diagnostics DiagnosticCount `json:"diagnostics"`
	Rows        []MatrixRow     `json:"rows"`
}

// DiagnosticCount says how many findings seg check would show: the matrix
// does not list them, but a reviewer must know they exist.
type DiagnosticCount struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
}

// sentence says what the tree holds besides the rows.
func (d DiagnosticCount) sentence(check string) string {
	if d.Errors+d.Warnings == 0 {
		return "The tree has no errors or warnings."
	}
	return fmt.Sprintf("The tree has %s and %s (%s lists them).", plural(d.Errors, "error"), plural(d.Warnings, "warning"), check)
}

// Coverage holds the figures printed above the rows.
type Coverage struct {
	// Satisfied counts satisfied requirements among all requirements.
	Satisfied Ratio `json:"requirements_satisfied"`
	// LeavesVerified counts leaf requirements that carry at least one
	// active verifies edge, among all leaves.
	LeavesVerified Ratio `json:"leaves_verified"`
	// LeavesImplemented counts leaf requirements that carry at least one
	// active implements edge, among all leaves.
	LeavesImplemented Ratio `json:"leaves_implemented"`
	// ByKind breaks the same figures down by directive, sorted by name.
	ByKind []KindCoverage `json:"by_kind"`
}

// KindCoverage is the coverage of the requirements of one directive.
type KindCoverage struct {
	Kind              string `json:"kind"`
	Satisfied         Ratio  `json:"requirements_satisfied"`
	LeavesVerified    Ratio  `json:"leaves_verified"`
	LeavesImplemented Ratio  `json:"leaves_implemented"`
}

// Ratio is count out of total. Percent is 100*count/total rounded down to
// one decimal (so 99.96 % is never shown as 100 %), or null when total is 0.
type Ratio struct {
	Count   int      `json:"count"`
	Total   int      `json:"total"`
	Percent *float64 `json:"percent"`
}

func (r *Ratio) add(ok bool) {
	r.Total++
	if ok {
		r.Count++
	}
}

func (r *Ratio) finish() {
	if r.Total > 0 {
		p := float64(r.Count*1000/r.Total) / 10
		r.Percent = &p
	}
}

// String is "n/N (p%)", or "n/N" when N is 0.
func (r Ratio) String() string {
	if r.Percent == nil {
		return fmt.Sprintf("%d/%d", r.Count, r.Total)
	}
	return fmt.Sprintf("%d/%d (%.1f%%)", r.Count, r.Total, *r.Percent)
}

// Below reports whether count/total is below pct percent. An empty ratio
// (0/0) is never below: nothing is unsatisfied.
func (r Ratio) Below(pct float64) bool {
	return r.Total > 0 && float64(r.Count)*100 < pct*float64(r.Total)
}

// MatrixRow is one requirement.
type MatrixRow struct {
	ID              string         `json:"id"`
	Kind            string         `json:"kind"` // the directive: sreq, sys, ...
	Title           string         `json:"title"`
	File            string         `json:"file"`
	Line            int            `json:"line"`
	Column          int            `json:"column"`
	URL             string         `json:"url,omitempty"`
	Leaf            bool           `json:"leaf"`
	Verdict         string         `json:"verdict"`
	Status          string         `json:"status"`
	Refines         []MatrixLink   `json:"refines"`
	RefinedBy       []MatrixLink   `json:"refined_by"`
	Tests           []MatrixTest   `json:"tests"`
	Implementations []MatrixLink   `json:"implemented_by"`
	Waivers         []MatrixWaiver `json:"waivers"`
	// Reasons are the blocking reasons, in the order seg check lists
	// them; the tables show the first.
	Reasons []MatrixReason `json:"reasons"`
	// Policy names the evidence policy a leaf was decided under, "" for
	// the seed's rule; the CSV and Markdown tables have a policy column
	// when any row has one.
	Policy string `json:"policy,omitempty"`
}

// MatrixLink is a node at the other end of an edge. File and Line are the
// node's own directive (where a link should take a reader), State the
// edge's.
type MatrixLink struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	State   string `json:"state"`
	Verdict string `json:"verdict,omitempty"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	URL     string `json:"url,omitempty"`
}

// MatrixTest is a test specification that verifies the requirement, with
// every outcome that confirms it.
type MatrixTest struct {
	MatrixLink
	// Partial marks a test that verifies the requirement in part only
	// (a results case's PartiallyVerifies property).
	Partial  bool            `json:"partial,omitempty"`
	Outcomes []MatrixOutcome `json:"outcomes"`
}

// MatrixOutcome is one outcome of a test. Status is how it counts
// (evaluate.OutcomeStatus): counted, excused, failing, invalid, skipped or
// excluded (it witnesses no implementation, so it is no evidence).
type MatrixOutcome struct {
	ID     string `json:"id"`
	Result string `json:"result"`
	Config string `json:"config"`
	Status string `json:"status"`
	// Why is the reason code of an excluded outcome.
	Why    string `json:"why,omitempty"`
	Waiver string `json:"waiver,omitempty"` // the waiver in force that excuses it
	// Case and CaseMessage are set on an outcome made from a results
	// file: the case's name and the first lines of its runner's message.
	Case        string `json:"case,omitempty"`
	CaseMessage string `json:"case_message,omitempty"`
	File        string `json:"file"`
	Line        int    `json:"line"`
	URL         string `json:"url,omitempty"`
}

// MatrixWaiver is a waiver in force (not expired at the evaluation date)
// that excuses an outcome of one of the requirement's tests.
type MatrixWaiver struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Expires string   `json:"expires"` // empty: never expires
	Excuses []string `json:"excuses"` // the outcomes of this requirement's tests it excuses
	File    string   `json:"file"`
	Line    int      `json:"line"`
	URL     string   `json:"url,omitempty"`
}

// MatrixReason is a blocking reason.
type MatrixReason struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	URL     string `json:"url,omitempty"`
}

// linker makes the links of one rendering.
type linker struct {
	template string
	base     string
	escaped  map[string]string // file -> escapePath(file), when set
}

func (l linker) path(file string) string {
	if l.escaped == nil {
		return escapePath(file)
	}
	e, ok := l.escaped[file]
	if !ok {
		e = escapePath(file)
		l.escaped[file] = e
	}
	return e
}

// url is the template's link to file:line, or "" without a template.
func (l linker) url(file string, line, col int) string {
	if l.template == "" || file == "" {
		return ""
	}
	return strings.NewReplacer("{file}", l.path(file), "{line}", strconv.Itoa(line), "{column}", strconv.Itoa(col)).Replace(l.template)
}

// rel is the link the HTML page uses: the template's, else the path
// relative to the page with the line as a fragment.
func (l linker) rel(file string, line int) string {
	if l.template != "" {
		return l.url(file, line, 1)
	}
	if file == "" {
		return ""
	}
	return l.base + l.path(file) + "#L" + strconv.Itoa(line)
}

var parenEscaper = strings.NewReplacer("(", "%28", ")", "%29")

// escapePath escapes each segment of a slash path for a URL, parentheses
// too (they would end a Markdown link).
func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = parenEscaper.Replace(url.PathEscape(s))
	}
	return strings.Join(parts, "/")
}

// BuildMatrix renders the evidence of every requirement of a check as
// matrix rows.
func BuildMatrix(c *check.Check, opt MatrixOptions) *Matrix {
	mb := &matrixBuilder{c: c, lk: linker{template: opt.LinkTemplate, escaped: map[string]string{}}, wh: whereOf(c)}
	n := c.Counts()
	m := &Matrix{Schema: MatrixSchema, At: Date(c.At), Rows: []MatrixRow{},
		Diagnostics: DiagnosticCount{Errors: n.Errors, Warnings: n.Warnings}}
	byKind := map[string]*KindCoverage{}
	for _, r := range c.Requirements() {
		row := mb.row(r)
		kc := byKind[row.Kind]
		if kc == nil {
			kc = &KindCoverage{Kind: row.Kind}
			byKind[row.Kind] = kc
		}
		m.Coverage.count(kc, r.Verdict)
		m.Rows = append(m.Rows, row)
	}
	m.Coverage.ByKind = []KindCoverage{}
	for _, k := range slices.Sorted(maps.Keys(byKind)) {
		m.Coverage.ByKind = append(m.Coverage.ByKind, *byKind[k])
	}
	m.Coverage.finish()
	return m
}

// count adds a requirement's verdict v to the coverage, and to kc, its
// kind's.
func (cv *Coverage) count(kc *KindCoverage, v evaluate.Verdict) {
	sat := v.Satisfied
	cv.Satisfied.add(sat)
	kc.Satisfied.add(sat)
	if v.Leaf {
		ver := slices.ContainsFunc(v.Verifies, func(t evaluate.TestEvidence) bool { return t.Edge.Active() })
		impl := slices.ContainsFunc(v.Implements, func(l evaluate.Link) bool { return l.Edge.Active() })
		cv.LeavesVerified.add(ver)
		cv.LeavesImplemented.add(impl)
		kc.LeavesVerified.add(ver)
		kc.LeavesImplemented.add(impl)
	}
}

// matrixBuilder makes the rows of a matrix.
type matrixBuilder struct {
	c  *check.Check
	lk linker
	wh where
}

// row is the row of requirement r: its links, reasons, tests with their
// outcomes, and the waivers in force among them.
func (mb *matrixBuilder) row(r check.Requirement) MatrixRow {
	node, v := r.Node, r.Verdict
	p := mb.wh.at(node.Pos())
	row := MatrixRow{
		ID: node.ID(), Kind: node.Directive(), Title: node.Title(), File: p.Filename, Line: p.Line, Column: p.Column,
		URL: mb.lk.url(p.Filename, p.Line, p.Column), Leaf: v.Leaf, Verdict: verdictWord(v.Satisfied), Status: v.Status.String(),
		Refines: mb.links(v.Refines), RefinedBy: mb.links(v.RefinedBy), Implementations: mb.links(v.Implements),
		Tests: []MatrixTest{}, Waivers: []MatrixWaiver{}, Reasons: []MatrixReason{}, Policy: PolicyText(v),
	}
	for _, reason := range v.Blocking() {
		rp := mb.wh.at(reason.Pos)
		row.Reasons = append(row.Reasons, MatrixReason{reason.Code.Name, reason.Message, rp.Filename, rp.Line, rp.Column, mb.lk.url(rp.Filename, rp.Line, rp.Column)})
	}
	waivers := map[string]int{} // waiver ID -> index in row.Waivers
	tests := make([]MatrixLink, 0, len(v.Verifies))
	for _, te := range v.Verifies {
		if seenLink(tests, te.Link) {
			continue
		}
		mt := MatrixTest{MatrixLink: mb.link(te.Node, te.Edge.State().String()), Partial: te.Edge.Partial(), Outcomes: []MatrixOutcome{}}
		tests = append(tests, mt.MatrixLink)
		for _, ev := range te.Outcomes {
			mt.Outcomes = append(mt.Outcomes, mb.outcome(ev))
			mb.addWaivers(&row, waivers, ev)
		}
		row.Tests = append(row.Tests, mt)
	}
	slices.SortFunc(row.Waivers, func(a, b MatrixWaiver) int { return strings.Compare(a.ID, b.ID) })
	for i := range row.Waivers {
		slices.Sort(row.Waivers[i].Excuses)
	}
	return row
}

// link is the link to node in state.
func (mb *matrixBuilder) link(node *graph.Node, state string) MatrixLink {
	p := mb.wh.at(node.Pos())
	return MatrixLink{ID: node.ID(), Title: node.Title(), State: state, Verdict: verdictOf(mb.c, node), File: p.Filename, Line: p.Line, URL: mb.lk.url(p.Filename, p.Line, p.Column)}
}

// links are the links of ls, each node and state once.
func (mb *matrixBuilder) links(ls []evaluate.Link) []MatrixLink {
	out := make([]MatrixLink, 0, len(ls))
	for _, l := range ls {
		if !seenLink(out, l) {
			out = append(out, mb.link(l.Node, l.Edge.State().String()))
		}
	}
	return out
}

// seenLink reports whether ls has l's node in l's state.
func seenLink(ls []MatrixLink, l evaluate.Link) bool {
	return slices.ContainsFunc(ls, func(m MatrixLink) bool { return m.ID == l.Node.ID() && m.State == l.Edge.State().String() })
}

// outcome is an outcome of a test, with its standing and, for one made
// from a results file, the case and its message.
func (mb *matrixBuilder) outcome(ev evaluate.OutcomeEvidence) MatrixOutcome {
	o := ev.Outcome
	op := mb.wh.at(o.Pos())
	mo := MatrixOutcome{ID: o.ID(), Result: o.Result().String(), Config: o.Config(), Status: ev.Standing.String(),
		File: op.Filename, Line: op.Line, URL: mb.lk.url(op.Filename, op.Line, op.Column)}
	if ev.Waiver != nil {
		mo.Waiver = ev.Waiver.ID()
	}
	if ev.Why != nil {
		mo.Why = ev.Why.Name
	}
	if o.FromResults() {
		mo.Case = o.Title()
		if n := mb.c.ResultsOutcome(o.ID()); n != nil {
			mo.CaseMessage = n.Body
		}
	}
	return mo
}

// addWaivers adds the waivers in force on the outcome of ev to the row,
// each once (waivers holds their indexes in row.Waivers), with the
// outcome among those it excuses.
func (mb *matrixBuilder) addWaivers(row *MatrixRow, waivers map[string]int, ev evaluate.OutcomeEvidence) {
	o := ev.Outcome
	for _, we := range ev.Waivers {
		if !we.InForce {
			continue
		}
		w := we.Waiver
		i, ok := waivers[w.ID()]
		if !ok {
			wp := mb.wh.at(w.Pos())
			i = len(row.Waivers)
			waivers[w.ID()] = i
			row.Waivers = append(row.Waivers, MatrixWaiver{ID: w.ID(), Title: w.Title(), Expires: w.ExpiresText(), Excuses: []string{},
				File: wp.Filename, Line: wp.Line, URL: mb.lk.url(wp.Filename, wp.Line, wp.Column)})
		}
		if !slices.Contains(row.Waivers[i].Excuses, o.ID()) {
			row.Waivers[i].Excuses = append(row.Waivers[i].Excuses, o.ID())
		}
	}
}

func (cv *Coverage) finish() {
	cv.Satisfied.finish()
	cv.LeavesVerified.finish()
	cv.LeavesImplemented.finish()
	for i := range cv.ByKind {
		k := &cv.ByKind[i]
		k.Satisfied.finish()
		k.LeavesVerified.finish()
		k.LeavesImplemented.finish()
	}
}

// WriteMatrixJSON writes the seg-matrix/1 document.
func WriteMatrixJSON(w io.Writer, m *Matrix) error { return encode(w, m) }

// outcomeNote is what the tables add after an outcome's result, if
// anything: outcomes that do not count as plain evidence say why.
func outcomeNote(o MatrixOutcome) string {
	switch o.Status {
	case "excluded":
		return outcomeWords(o.Status, o.Why)
	case "excused":
		return "excused by " + o.Waiver
	case "invalid":
		return "no valid result"
	}
	return ""
}

// outcomeText is "passed[linux]" with a note: "failed[win] (excused by W-1)",
// after the case name of an outcome made from results ("pkg.TestX: failed").
func outcomeText(o MatrixOutcome) string {
	s := o.Result
	if o.Case != "" {
		s = o.Case + ": " + s
	}
	if o.Config != "" {
		s += "[" + o.Config + "]"
	}
	if n := outcomeNote(o); n != "" {
		s += " (" + n + ")"
	}
	return s
}

// partialSuffix marks a test that verifies in part.
func partialSuffix(partial bool) string {
	if partial {
		return " (partial)"
	}
	return ""
}

func stateSuffix(state string) string {
	if state == "active" {
		return ""
	}
	return " (" + state + ")"
}

// testText is "TS-1: passed[linux], skipped[win]".
func testText(t MatrixTest) string {
	var b strings.Builder
	b.WriteString(t.ID + stateSuffix(t.State) + partialSuffix(t.Partial) + ": ")
	if len(t.Outcomes) == 0 {
		b.WriteString("no outcomes")
	}
	for i, o := range t.Outcomes {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(outcomeText(o))
	}
	return b.String()
}

func waiverText(w MatrixWaiver) string {
	s := w.ID + " (excuses " + strings.Join(w.Excuses, ", ")
	if w.Expires != "" {
		s += "; expires " + w.Expires
	}
	return s + ")"
}

// WriteMatrixCSV writes one header line and one line per requirement
// (RFC 4180). Lists inside a cell are separated by "; ". Cells are
// escaped as Printable says. The coverage
// figures are not in the CSV: a second table would break every CSV reader
// (they are in the other formats).
func WriteMatrixCSV(w io.Writer, m *Matrix) error {
	cw := csv.NewWriter(w)
	policies := m.hasPolicies()
	header := []string{"id", "kind", "title", "file", "line", "url", "leaf", "verdict", "status",
		"refines", "refined_by", "tests", "implemented_by", "waivers",
		"reason_code", "reason", "reason_file", "reason_line", "more_reasons"}
	if policies {
		header = append(header, "policy")
	}
	cw.Write(header)
	linkList := func(ls []MatrixLink) string {
		parts := make([]string, len(ls))
		for i, l := range ls {
			parts[i] = l.ID + stateSuffix(l.State)
		}
		return strings.Join(parts, "; ")
	}
	for _, r := range m.Rows {
		tests := make([]string, len(r.Tests))
		for i, t := range r.Tests {
			tests[i] = testText(t)
		}
		waivers := make([]string, len(r.Waivers))
		for i, wv := range r.Waivers {
			waivers[i] = waiverText(wv)
		}
		code, msg, file, line, more := "", "", "", "", ""
		if len(r.Reasons) > 0 {
			f := r.Reasons[0]
			code, msg, file, line, more = f.Code, f.Message, f.File, strconv.Itoa(f.Line), strconv.Itoa(len(r.Reasons)-1)
		}
		row := []string{r.ID, r.Kind, r.Title, r.File, strconv.Itoa(r.Line), r.URL, strconv.FormatBool(r.Leaf), r.Verdict, r.Status,
			linkList(r.Refines), linkList(r.RefinedBy), strings.Join(tests, "; "), linkList(r.Implementations), strings.Join(waivers, "; "),
			code, msg, file, line, more}
		if policies {
			row = append(row, r.Policy)
		}
		// Quoting would keep a line break inside its cell, but a control
		// character must not reach the terminal that shows the file.
		for i, cell := range row {
			row[i] = Printable(cell)
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// mdEscape makes text safe in a Markdown table cell: no line breaks, no
// pipe, no emphasis, link, code or HTML.
var mdEscaper = strings.NewReplacer(
	"\\", "\\\\", "|", "\\|", "*", "\\*", "_", "\\_", "[", "\\[", "]", "\\]", "`", "\\`",
	"<", "&lt;", ">", "&gt;", "&", "&amp;", "~", "\\~",
	"\r\n", " ", "\n", " ", "\r", " ",
)

func mdEscape(s string) string { return mdEscaper.Replace(Printable(s)) }

// mdLink is the escaped text, as a link when url is set.
func mdLink(text, url string) string {
	if url == "" {
		return mdEscape(text)
	}
	return "[" + mdEscape(text) + "](" + strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "|", "%7C", "<", "%3C", ">", "%3E").Replace(url) + ")"
}

// WriteMatrixMarkdown writes the matrix as a GitHub-flavoured Markdown
// document: coverage table, then one table row per requirement.
func WriteMatrixMarkdown(w io.Writer, m *Matrix) error {
	bw := bufio.NewWriter(w)
	cv := m.Coverage
	fmt.Fprintf(bw, "# Traceability matrix\n\nEvaluated at %s: %d of %s satisfied. %s\n\n",
		m.At, cv.Satisfied.Count, plural(cv.Satisfied.Total, "requirement"), m.Diagnostics.sentence("`seg check`"))
	bw.WriteString("## Coverage\n\n")
	bw.WriteString("| Kind | Requirements satisfied | Leaves verified | Leaves implemented |\n|---|---|---|---|\n")
	fmt.Fprintf(bw, "| **all** | %s | %s | %s |\n", cv.Satisfied, cv.LeavesVerified, cv.LeavesImplemented)
	for _, k := range cv.ByKind {
		fmt.Fprintf(bw, "| %s | %s | %s | %s |\n", mdEscape(k.Kind), k.Satisfied, k.LeavesVerified, k.LeavesImplemented)
	}
	bw.WriteString("\nA leaf is verified when it carries an active verifies edge, implemented when it carries an active implements edge.\n\n")
	bw.WriteString("## Requirements\n\n")
	policies := m.hasPolicies()
	if policies {
		bw.WriteString("| ID | Kind | Title | Location | Refines | Refined by | Tests | Implemented by | Waivers in force | Verdict | First reason | Policy |\n")
		bw.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	} else {
		bw.WriteString("| ID | Kind | Title | Location | Refines | Refined by | Tests | Implemented by | Waivers in force | Verdict | First reason |\n")
		bw.WriteString("|---|---|---|---|---|---|---|---|---|---|---|\n")
	}
	linkList := func(ls []MatrixLink) string {
		parts := make([]string, len(ls))
		for i, l := range ls {
			parts[i] = mdLink(l.ID, l.URL) + mdEscape(stateSuffix(l.State))
		}
		return strings.Join(parts, ", ")
	}
	for _, r := range m.Rows {
		tests := make([]string, len(r.Tests))
		for i, t := range r.Tests {
			var b strings.Builder
			b.WriteString(mdLink(t.ID, t.URL) + mdEscape(stateSuffix(t.State)+partialSuffix(t.Partial)) + ": ")
			if len(t.Outcomes) == 0 {
				b.WriteString("no outcomes")
			}
			for j, o := range t.Outcomes {
				if j > 0 {
					b.WriteString(", ")
				}
				if o.Case != "" {
					b.WriteString(mdEscape(o.Case + ": "))
				}
				b.WriteString(mdLink(o.Result, o.URL))
				if o.Config != "" {
					b.WriteString(mdEscape("[" + o.Config + "]"))
				}
				if n := outcomeNote(o); n != "" {
					b.WriteString(mdEscape(" (" + n + ")"))
				}
			}
			tests[i] = b.String()
		}
		waivers := make([]string, len(r.Waivers))
		for i, wv := range r.Waivers {
			s := mdLink(wv.ID, wv.URL) + mdEscape(" (excuses "+strings.Join(wv.Excuses, ", "))
			if wv.Expires != "" {
				s += mdEscape("; expires " + wv.Expires)
			}
			waivers[i] = s + ")"
		}
		verdict := r.Status
		if verdict != "satisfied" {
			verdict = "**" + verdict + "**"
		}
		reason := ""
		if len(r.Reasons) > 0 {
			f := r.Reasons[0]
			reason = mdLink(at(f.File, f.Line, f.Column), f.URL) + ": " + mdEscape(f.Message+" ["+f.Code+"]")
			if len(r.Reasons) > 1 {
				reason += fmt.Sprintf(" (+%d more)", len(r.Reasons)-1)
			}
		}
		fmt.Fprintf(bw, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |",
			mdLink(r.ID, r.URL), mdEscape(r.Kind), mdEscape(r.Title), mdLink(fmt.Sprintf("%s:%d", r.File, r.Line), r.URL),
			linkList(r.Refines), linkList(r.RefinedBy), strings.Join(tests, "<br>"), linkList(r.Implementations),
			strings.Join(waivers, "<br>"), verdict, reason)
		if policies {
			fmt.Fprintf(bw, " %s |", mdEscape(r.Policy))
		}
		bw.WriteString("\n")
	}
	return bw.Flush()
}

// hasPolicies reports whether a row was decided under an evidence
// policy: the tables then have a policy column.
func (m *Matrix) hasPolicies() bool {
	for i := range m.Rows {
		if m.Rows[i].Policy != "" {
			return true
		}
	}
	return false
}
