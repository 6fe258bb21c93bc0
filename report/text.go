package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/source"
)

// TextOptions are how the text report is written.
type TextOptions struct {
	// Colored writes ANSI colors (the caller decides: a terminal, --color).
	Colored bool
	// Quiet leaves the satisfied requirements out: the diagnostics, the
	// unsatisfied requirements and the summary remain (--quiet).
	Quiet bool
	// Evidence adds to the JSON report each requirement's counted
	// evidence (evidence[], --evidence), what seg diff of two such
	// documents compares for lost evidence. It is left out by default:
	// it is most of the document on a large tree (three times its size
	// on bench/gen's 50,000 requirements).
	Evidence bool
}

// WriteText writes the compiler-style report: diagnostics with source
// snippets, then every requirement with its status (satisfied, failing or
// unproven; the others with their reasons), then a summary line that
// names the evaluation date.
func WriteText(w io.Writer, c *check.Check, opt TextOptions) error {
	bw := bufio.NewWriter(w)
	st := newStyle(opt.Colored)
	wh := whereOf(c)
	for _, d := range c.Diagnostics {
		writeDiagnostic(bw, st, wh, d)
	}
	reqs := c.Requirements()
	if opt.Quiet {
		reqs = slices.DeleteFunc(reqs, func(r check.Requirement) bool { return r.Verdict.Satisfied })
	}
	if len(c.Diagnostics) > 0 && len(reqs) > 0 {
		bw.WriteByte('\n')
	}
	// The ID column is padded by display width: wide characters take two
	// columns, combining marks none.
	width := 0
	for _, r := range reqs {
		width = max(width, displayWidth(Printable(r.Node.ID())))
	}
	for _, r := range reqs {
		id := Printable(r.Node.ID())
		pad := strings.Repeat(" ", width-displayWidth(id))
		status := r.Verdict.Status.String()
		word := st.status(status) + strings.Repeat(" ", len("satisfied")-len(status))
		fmt.Fprintf(bw, "%s%s  %s  %s  %s\n", st.id(id), pad, word, st.pos(wh.pos(r.Node.Pos())), Printable(r.Node.Title()))
		if p := PolicyText(r.Verdict); p != "" {
			fmt.Fprintf(bw, "    %s under %s\n", status, Printable(p))
		}
		for _, reason := range r.Verdict.Blocking() {
			fmt.Fprintf(bw, "    %s: %s [%s]\n", st.pos(wh.pos(reason.Pos)), Printable(reason.Message), reason.Code)
		}
	}
	if len(c.Diagnostics) > 0 || len(reqs) > 0 {
		bw.WriteByte('\n')
	}
	fmt.Fprintf(bw, "%s (evaluated at %s)\n", checkSummary(c), Date(c.At))
	for _, s := range c.Shortfalls() {
		fmt.Fprintf(bw, "coverage below --min-coverage %s\n", s)
	}
	return bw.Flush()
}

// WriteDiagnostics writes diagnostics alone, as the text report shows them.
func WriteDiagnostics(w io.Writer, c *check.Check, ds diag.List, colored bool) error {
	bw := bufio.NewWriter(w)
	st := newStyle(colored)
	for _, d := range ds {
		writeDiagnostic(bw, st, whereOf(c), d)
	}
	return bw.Flush()
}

func writeDiagnostic(w *bufio.Writer, st style, wh where, d diag.Diagnostic) {
	sev := d.Severity().String()
	fmt.Fprintf(w, "%s: %s: %s [%s]\n", st.pos(wh.pos(d.Span.Start)), st.severity(sev), Printable(d.Message), d.Code)
	writeSnippet(w, st, wh, d.Span, sev)
	writeHelp(w, st, d.Detail)
	for _, r := range d.Related {
		fmt.Fprintf(w, "%s: %s: %s\n", st.pos(wh.pos(r.Span.Start)), st.note("note"), Printable(r.Message))
	}
}

// writeHelp prints a diagnostic's detail (how to fix it) under its
// snippet, as a compiler prints a help line: "     = help: ...", lined up
// with the snippet's bar. Further lines of the detail are indented to the
// text of the first.
func writeHelp(w *bufio.Writer, st style, detail string) {
	detail = strings.TrimSpace(detail)
	if detail == "" {
		return
	}
	lines := strings.Split(detail, "\n")
	fmt.Fprintf(w, "%4s %s %s\n", "", st.dim("="), st.note("help:")+" "+lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintf(w, "%4s   %s%s\n", "", "      ", strings.TrimRight(l, " \t"))
	}
}

// writeSnippet prints the source line of a span (escaped as Printable
// says) and a caret line under it. The caret line copies the tabs of the
// source line and counts display width elsewhere (a wide character takes
// two columns, a combining mark none, an escape its own letters), so it
// lines up in any terminal whatever its tab width. A line longer than
// snippetWidth characters (a link option of hundreds of IDs) is shown as
// a window of that many around the caret, "…" marking what is cut, never
// whole. The carets take the severity's color.
func writeSnippet(w *bufio.Writer, st style, wh where, sp source.Span, severity string) {
	line, ok := wh.line(sp.Start)
	if !ok || !utf8.Valid(line) {
		return
	}
	start := wh.at(sp.Start)
	num := fmt.Sprint(start.Line)
	gutter := strings.Repeat(" ", len(num))
	col := start.Column
	if col < 1 || col > len(line)+1 {
		fmt.Fprintf(w, "%s %s %s\n", st.dim(fmt.Sprintf("%4s", num)), st.dim("|"), Printable(snippetWindow(line, 0, 0).text))
		return
	}
	width := 1
	if n := sp.Len(); n > 0 && col-1+n <= len(line) && wh.at(sp.End).Line == start.Line {
		width = max(1, utf8.RuneCount(line[col-1:col-1+n]))
	}
	c0 := utf8.RuneCount(line[:col-1])
	win := snippetWindow(line, c0, width)
	fmt.Fprintf(w, "%s %s %s\n", st.dim(fmt.Sprintf("%4s", num)), st.dim("|"), Printable(win.text))
	var pad strings.Builder
	for i, seg := range strings.Split(Printable(string(win.before)), "\t") {
		if i > 0 {
			pad.WriteByte('\t')
		}
		pad.WriteString(strings.Repeat(" ", displayWidth(seg)))
	}
	runes := []rune(string(line))
	under := string(runes[min(c0, len(runes)):min(c0+win.width, len(runes))])
	carets := max(1, displayWidth(strings.ReplaceAll(Printable(under), "\t", " ")))
	fmt.Fprintf(w, "%s %s %s%s\n", fmt.Sprintf("%4s", strings.Repeat(" ", len(gutter))), st.dim("|"), pad.String(), st.caret(severity, strings.Repeat("^", carets)))
}

// snippetWidth is the most characters of a source line a snippet shows.
const snippetWidth = 100

// window is the part of a line a snippet shows: its text ("…" where it is
// cut), what comes before the caret in it, and the caret's width.
type window struct {
	text   string
	before []rune
	width  int
}

// snippetWindow cuts a window of at most snippetWidth characters out of
// line around the caret at character col (0-based) of width characters:
// the caret starts a little into the window, and a caret wider than the
// window is cut to it.
func snippetWindow(line []byte, col, width int) window {
	runes := []rune(string(line))
	if len(runes) <= snippetWidth {
		return window{text: string(line), before: runes[:min(col, len(runes))], width: width}
	}
	const lead = 30 // characters shown before the caret
	from := max(0, col-lead)
	to := min(len(runes), from+snippetWidth)
	from = max(0, min(from, to-snippetWidth))
	if col+width > to {
		width = max(1, to-col)
	}
	var b strings.Builder
	before := []rune{}
	if from > 0 {
		b.WriteString("…")
		before = append(before, ' ')
	}
	b.WriteString(string(runes[from:to]))
	if to < len(runes) {
		b.WriteString("…")
	}
	before = append(before, runes[from:min(col, to)]...)
	return window{text: b.String(), before: before, width: width}
}
