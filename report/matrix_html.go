package report

import (
	"bufio"
	_ "embed"
	"html/template"
	"io"
	"strings"
	"sync"

	"github.com/seg-trace/seg/check"
)

//go:embed matrix/matrix.html.tmpl
var matrixHTMLSource string

var matrixHTML = sync.OnceValue(func() *template.Template {
	// The functions are placeholders for parsing; WriteMatrixHTML binds
	// the real ones to each rendering.
	return template.Must(template.New("matrix").Funcs(matrixFuncs(linker{})).Parse(matrixHTMLSource))
})

// htmlMatrix is what the page template reads.
type htmlMatrix struct {
	*Matrix
	Rows []htmlRow
	// Explanations are the evidence trees, as data the page's script turns
	// into DOM when a row is expanded: 10,000 trees in the document would
	// double its size, load and sort times.
	Explanations   htmlExplanations
	OK, Bad, Other template.CSS
}

type htmlRow struct {
	Row  *MatrixRow
	Href any // the requirement's own link (see the href function)
}

// htmlExplanations is the JSON the page's script reads. Positions name
// their file by index into Files; Hrefs holds, by file, the link with
// {line} and {column} left to fill in (or "" for no link). Rows holds one
// array per row, in the layout the script's comments give.
type htmlExplanations struct {
	Files  []string          `json:"files"`
	Hrefs  []string          `json:"hrefs"`
	Status map[string]string `json:"status"`
	Rows   [][]any           `json:"rows"`
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
		"statusWords":  func(status string) string { return statusWords[status] },
		"outcomeWords": outcomeWords,
		"ratioClass": func(r Ratio) string {
			switch {
			case r.Total == 0:
				return ""
			case r.Count == r.Total:
				return "full"
			}
			return "part"
		},
		"join":   strings.Join,
		"plural": plural,
		"sub":    func(a, b int) int { return a - b },
	}
}

// WriteMatrixHTML writes the matrix as one self-contained HTML page: inline
// CSS and script, no network access. Without JavaScript it is a plain table
// with verdict badges, links and the first reason of each unsatisfied row;
// the script adds sorting by column, filters by verdict, kind and text, and
// a button per row that shows its full explanation. html/template escapes
// the page; the script puts the explanations' text in as text. Without a
// link template, links are relative paths (opt.LinkBase + file + "#L" +
// line).
func WriteMatrixHTML(w io.Writer, c *check.Check, m *Matrix, opt MatrixOptions) error {
	lk := linker{template: opt.LinkTemplate, base: opt.LinkBase, escaped: map[string]string{}}
	t, err := matrixHTML().Clone()
	if err != nil {
		return err
	}
	t.Funcs(matrixFuncs(lk))
	href := matrixFuncs(lk)["href"].(func(string, int) any)
	page := htmlMatrix{Matrix: m, Rows: make([]htmlRow, len(m.Rows)), Explanations: explanationData(c, m, lk),
		OK: colorSatisfied, Bad: colorUnsatisfied, Other: colorOther}
	for i := range m.Rows {
		r := &m.Rows[i]
		page.Rows[i] = htmlRow{Row: r, Href: href(r.File, r.Line)}
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	if err := t.Execute(bw, page); err != nil {
		return err
	}
	return bw.Flush()
}

func explanationData(c *check.Check, m *Matrix, lk linker) htmlExplanations {
	d := htmlExplanations{Files: []string{}, Hrefs: []string{}, Status: statusWords, Rows: make([][]any, len(m.Rows))}
	index := map[string]int{}
	file := func(f string) int {
		i, ok := index[f]
		if !ok {
			i = len(d.Files)
			index[f] = i
			d.Files = append(d.Files, f)
			href := ""
			switch {
			case f == "":
			case lk.template == "":
				href = lk.pattern(f) // made by seg: a relative path or a file: URL
			default:
				href = safeHref(lk.pattern(f))
			}
			d.Hrefs = append(d.Hrefs, href)
		}
		return i
	}
	node := func(id string) (int, int) {
		n, ok := c.Graph.Lookup(id)
		if !ok {
			return file(""), 0
		}
		p := c.Files.Position(n.Pos())
		return file(p.Filename), p.Line
	}
	reasons := func(rs []jsonReason) []any {
		out := make([]any, len(rs))
		for i, r := range rs {
			out[i] = []any{r.Code, r.Message, file(r.File), r.Line, r.Column}
		}
		return out
	}
	links := func(ls []LinkedNode) []any {
		out := make([]any, len(ls))
		for i, l := range ls {
			nf, nl := node(l.ID)
			out[i] = []any{l.ID, l.Title, l.State, l.Verdict, file(l.File), l.Line, l.Column, nf, nl}
		}
		return out
	}
	for i := range m.Rows {
		x := m.Rows[i].explanation
		tests := make([]any, len(x.Verifies))
		for j, t := range x.Verifies {
			outcomes := make([]any, len(t.Outcomes))
			for k, o := range t.Outcomes {
				wf, wl := file(""), 0
				if o.Waiver != "" {
					wf, wl = node(o.Waiver)
				}
				outcomes[k] = []any{o.ID, o.Result, o.Config, outcomeWords(o.Status, o.Why), o.Waiver, o.Expires, file(o.File), o.Line, wf, wl,
					o.Status, o.CaseMessage}
			}
			nf, nl := node(t.ID)
			tests[j] = []any{t.ID, t.Title, t.State, file(t.File), t.Line, t.Column, nf, nl, outcomes}
		}
		leaf := 0
		if x.Leaf {
			leaf = 1
		}
		d.Rows[i] = []any{leaf, file(x.File), x.Line, x.Column, reasons(x.Reasons), reasons(x.Notes),
			links(x.Refines), links(x.RefinedBy), tests, links(x.Implement)}
	}
	return d
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
