package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/seg-trace/seg/parser"
)

// WriteGitHub writes GitHub Actions workflow commands (docs/ci.md): one
// ::error or ::warning line per diagnostic and one ::error line per
// unsatisfied requirement, at its definition, whose message is its first
// blocking reason and the count of the others. The runner turns each line
// into an annotation on the file. A last plain line is the summary, so the
// log states the evaluation date as every report does.
//
// Columns are 1-based and count Unicode code points, like SARIF's
// (see columns); endColumn is exclusive, as in seg's spans. Values are
// escaped as the Actions toolkit does (command.ts): in the message %, CR
// and LF; in properties also : and ,.
func WriteGitHub(w io.Writer, c *Check, _ bool) error {
	bw := bufio.NewWriter(w)
	cols := newColumns(c.Source)
	for _, d := range c.Diagnostics {
		cmd := "error"
		if d.Severity == parser.Warning {
			cmd = "warning"
		}
		msg := d.Message + " [" + d.Code + "]"
		for _, r := range d.Related {
			msg += "\n" + r.Span.Start.String() + ": note: " + r.Message
		}
		writeCommand(bw, cmd, spanProps(cols, d.Span, d.Code), msg)
	}
	for _, r := range c.Requirements() {
		if r.Verdict.Satisfied {
			continue
		}
		pos := r.Node.Pos()
		title := "unsatisfied requirement " + r.Node.ID()
		writeCommand(bw, "error", spanProps(cols, parser.Span{Start: pos}, title), unsatisfiedMessage(r))
	}
	n := c.Counts()
	fmt.Fprintf(bw, "seg: %s: %d satisfied, %d unsatisfied; %s, %s (evaluated at %s)\n",
		plural(n.Requirements, "requirement"), n.Satisfied, n.Unsatisfied,
		plural(n.Errors, "error"), plural(n.Warnings, "warning"), Date(c.At))
	return bw.Flush()
}

// unsatisfiedMessage is the one-annotation summary of an unsatisfied
// requirement: its first blocking reason (with the reason's position when
// it is elsewhere) and how many more there are. seg explain has them all.
func unsatisfiedMessage(r Requirement) string {
	id := r.Node.ID()
	msg := fmt.Sprintf("%s %q is unsatisfied", id, r.Node.Title())
	reasons := r.Verdict.Blocking()
	if len(reasons) == 0 {
		return msg
	}
	first := reasons[0]
	msg += ": " + first.Message + " [" + first.Code + "]"
	if first.Pos != r.Node.Pos() && first.Pos.IsValid() {
		msg += " at " + first.Pos.String()
	}
	switch more := len(reasons) - 1; more {
	case 0:
	case 1:
		msg += fmt.Sprintf(" (and 1 more reason: seg explain %s)", id)
	default:
		msg += fmt.Sprintf(" (and %d more reasons: seg explain %s)", more, id)
	}
	return msg
}

type property struct{ key, value string }

// spanProps are the location properties of an annotation: file, line, col,
// endLine, endColumn (each only when known), and title.
func spanProps(cols *columns, sp parser.Span, title string) []property {
	var ps []property
	start := sp.Start
	if start.File != "" {
		ps = append(ps, property{"file", start.File})
	}
	if start.File != "" && start.IsValid() {
		ps = append(ps, property{"line", strconv.Itoa(start.Line)})
		if start.Col > 0 {
			ps = append(ps, property{"col", strconv.Itoa(cols.col(start))})
		}
		if end := sp.End; end.IsValid() && end.File == start.File && !end.Before(start) {
			ps = append(ps, property{"endLine", strconv.Itoa(end.Line)})
			if end.Line == start.Line && start.Col > 0 && end.Col > start.Col {
				ps = append(ps, property{"endColumn", strconv.Itoa(cols.col(end))})
			}
		}
	}
	return append(ps, property{"title", title})
}

func writeCommand(w *bufio.Writer, cmd string, props []property, msg string) {
	w.WriteString("::")
	w.WriteString(cmd)
	for i, p := range props {
		if i == 0 {
			w.WriteByte(' ')
		} else {
			w.WriteByte(',')
		}
		w.WriteString(p.key)
		w.WriteByte('=')
		w.WriteString(EscapeGitHubProperty(p.value))
	}
	w.WriteString("::")
	w.WriteString(EscapeGitHubData(msg))
	w.WriteByte('\n')
}

var (
	ghData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// EscapeGitHubData escapes the message of a workflow command.
func EscapeGitHubData(s string) string { return ghData.Replace(s) }

// EscapeGitHubProperty escapes a property value of a workflow command.
func EscapeGitHubProperty(s string) string { return ghProperty.Replace(s) }

// columns converts seg's columns (1-based byte offsets into the line) into
// 1-based Unicode code point columns, reading each file at most once. When
// the source cannot be read the byte column is kept (the same for ASCII).
type columns struct{ sn *snippets }

func newColumns(source func(string) []byte) *columns {
	return &columns{sn: newSnippets(source)}
}

func (c *columns) col(p parser.Pos) int {
	if p.Col < 1 {
		return p.Col
	}
	line, ok := c.sn.line(p.File, p.Line)
	if !ok {
		return p.Col
	}
	off := p.Col - 1
	if off <= len(line) {
		return utf8.RuneCount(line[:off]) + 1
	}
	// Past the end of the line (an exclusive end at the line's end, or a
	// stale position): count the bytes beyond as one column each.
	return utf8.RuneCount(line) + off - len(line) + 1
}
