package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/source"
)

// WriteText writes the compiler-style report: diagnostics with source
// snippets, then every requirement with its status (satisfied, failing or
// unproven; the others with their reasons), then a summary line that
// names the evaluation date.
func WriteText(w io.Writer, c *check.Check, colored bool) error {
	bw := bufio.NewWriter(w)
	st := newStyle(colored)
	wh := whereOf(c)
	for _, d := range c.Diagnostics {
		writeDiagnostic(bw, st, wh, d)
	}
	reqs := c.Requirements()
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
		for _, reason := range r.Verdict.Blocking() {
			fmt.Fprintf(bw, "    %s: %s [%s]\n", st.pos(wh.pos(reason.Pos)), Printable(reason.Message), reason.Code)
		}
	}
	n := c.Counts()
	fmt.Fprintf(bw, "\n%s (evaluated at %s)\n", summary(n), Date(c.At))
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
	fmt.Fprintf(w, "%s: %s: %s [%s]\n", st.pos(wh.pos(d.Span.Start)), st.severity(d.Severity().String()), Printable(d.Message), d.Code)
	writeSnippet(w, st, wh, d.Span)
	for _, r := range d.Related {
		fmt.Fprintf(w, "%s: %s: %s\n", st.pos(wh.pos(r.Span.Start)), st.note("note"), Printable(r.Message))
	}
}

// writeSnippet prints the source line of a span (escaped as Printable
// says) and a caret line under it. The caret line copies the tabs of the
// source line and counts display width elsewhere (a wide character takes
// two columns, a combining mark none, an escape its own letters), so it
// lines up in any terminal whatever its tab width.
func writeSnippet(w *bufio.Writer, st style, wh where, sp source.Span) {
	line, ok := wh.line(sp.Start)
	if !ok || !utf8.Valid(line) {
		return
	}
	start := wh.at(sp.Start)
	num := fmt.Sprint(start.Line)
	gutter := strings.Repeat(" ", len(num))
	fmt.Fprintf(w, "%s %s %s\n", st.dim(fmt.Sprintf("%4s", num)), st.dim("|"), Printable(string(line)))
	col := start.Column
	if col < 1 || col > len(line)+1 {
		return
	}
	var pad strings.Builder
	for i, seg := range strings.Split(Printable(string(line[:col-1])), "\t") {
		if i > 0 {
			pad.WriteByte('\t')
		}
		pad.WriteString(strings.Repeat(" ", displayWidth(seg)))
	}
	width := 1
	if n := sp.Len(); n > 0 && col-1+n <= len(line) && wh.at(sp.End).Line == start.Line {
		width = max(1, displayWidth(strings.ReplaceAll(Printable(string(line[col-1:col-1+n])), "\t", " ")))
	}
	fmt.Fprintf(w, "%s %s %s%s\n", fmt.Sprintf("%4s", strings.Repeat(" ", len(gutter))), st.dim("|"), pad.String(), st.err(strings.Repeat("^", width)))
}
