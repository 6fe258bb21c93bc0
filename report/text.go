package report

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/seg-trace/seg/parser"
)

// WriteText writes the compiler-style report: diagnostics with source
// snippets, then every requirement with its verdict (unsatisfied ones with
// their reasons), then a summary line that names the evaluation date.
func WriteText(w io.Writer, c *Check, colored bool) error {
	bw := bufio.NewWriter(w)
	st := newStyle(colored)
	sn := newSnippets(c.Source)
	for _, d := range c.Diagnostics {
		writeDiagnostic(bw, st, sn, d)
	}
	reqs := c.Requirements()
	if len(c.Diagnostics) > 0 && len(reqs) > 0 {
		bw.WriteByte('\n')
	}
	width := 0
	for _, r := range reqs {
		width = max(width, len(r.Node.ID()))
	}
	for _, r := range reqs {
		pad := strings.Repeat(" ", width-len(r.Node.ID()))
		verdict := st.verdict(r.Verdict.Satisfied)
		if r.Verdict.Satisfied {
			verdict += "  " // line up with "unsatisfied"
		}
		fmt.Fprintf(bw, "%s%s  %s  %s  %s\n", st.id(r.Node.ID()), pad, verdict, st.pos(r.Node.Pos().String()), r.Node.Title())
		for _, reason := range r.Verdict.Blocking() {
			fmt.Fprintf(bw, "    %s: %s [%s]\n", st.pos(reason.Pos.String()), reason.Message, reason.Code)
		}
	}
	n := c.Counts()
	fmt.Fprintf(bw, "\n%s: %d satisfied, %d unsatisfied; %s, %s (evaluated at %s)\n",
		plural(n.Requirements, "requirement"), n.Satisfied, n.Unsatisfied,
		plural(n.Errors, "error"), plural(n.Warnings, "warning"), Date(c.At))
	return bw.Flush()
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func writeDiagnostic(w *bufio.Writer, st style, sn *snippets, d parser.Diagnostic) {
	fmt.Fprintf(w, "%s: %s: %s [%s]\n", st.pos(d.Span.Start.String()), st.severity(d.Severity.String()), d.Message, d.Code)
	sn.write(w, st, d.Span)
	for _, r := range d.Related {
		fmt.Fprintf(w, "%s: %s: %s\n", st.pos(r.Span.Start.String()), st.note("note"), r.Message)
	}
}

// snippets reads each source file at most once and hands out its lines.
type snippets struct {
	source func(string) []byte
	lines  map[string][][]byte
}

func newSnippets(source func(string) []byte) *snippets {
	return &snippets{source: source, lines: map[string][][]byte{}}
}

func (s *snippets) line(file string, n int) ([]byte, bool) {
	if s.source == nil || file == "" || n < 1 {
		return nil, false
	}
	ls, ok := s.lines[file]
	if !ok {
		data := s.source(file)
		data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
		data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
		data = bytes.ReplaceAll(data, []byte("\r"), []byte("\n"))
		if data != nil {
			ls = bytes.Split(data, []byte("\n"))
		}
		s.lines[file] = ls
	}
	if n > len(ls) {
		return nil, false
	}
	return ls[n-1], true
}

// write prints the source line of a span and a caret line under it. The
// caret line copies the tabs of the source line, so it lines up in any
// terminal whatever its tab width.
func (s *snippets) write(w *bufio.Writer, st style, sp parser.Span) {
	line, ok := s.line(sp.Start.File, sp.Start.Line)
	if !ok || !utf8.Valid(line) {
		return
	}
	num := fmt.Sprint(sp.Start.Line)
	gutter := strings.Repeat(" ", len(num))
	fmt.Fprintf(w, "%s %s %s\n", st.dim(fmt.Sprintf("%4s", num)), st.dim("|"), line)
	col := sp.Start.Col
	if col < 1 || col > len(line)+1 {
		return
	}
	var pad strings.Builder
	for _, r := range string(line[:col-1]) {
		if r == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteByte(' ')
		}
	}
	width := 1
	if n := sp.Len(); n > 0 && col-1+n <= len(line) {
		width = max(1, utf8.RuneCount(line[col-1:col-1+n]))
	}
	fmt.Fprintf(w, "%s %s %s%s\n", fmt.Sprintf("%4s", strings.Repeat(" ", len(gutter))), st.dim("|"), pad.String(), st.err(strings.Repeat("^", width)))
}
