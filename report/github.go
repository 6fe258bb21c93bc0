package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/source"
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
// and LF; in properties also : and ,. Before that, what comes from the
// tree in a message or a title is escaped as Printable says (a runner's
// log shows ANSI sequences); the file property is kept exact, so that the
// runner finds the file.
func WriteGitHub(w io.Writer, c *check.Check, _ bool) error {
	bw := bufio.NewWriter(w)
	wh := whereOf(c)
	for _, d := range c.Diagnostics {
		cmd := "error"
		if d.Severity() == diag.Warning {
			cmd = "warning"
		}
		msg := Printable(d.Message) + " [" + d.Code.Name + "]"
		for _, r := range d.Related {
			msg += "\n" + wh.pos(r.Span.Start) + ": note: " + Printable(r.Message)
		}
		writeCommand(bw, cmd, spanProps(wh, d.Span, d.Code.Name), msg)
	}
	for _, r := range c.Requirements() {
		if r.Verdict.Satisfied {
			continue
		}
		title := "unsatisfied requirement " + Printable(r.Node.ID())
		writeCommand(bw, level(c.FailsOn(r)), spanProps(wh, source.At(r.Node.Pos()), title), Printable(unsatisfiedMessage(wh, r)))
	}
	fmt.Fprintf(bw, "seg: %s (evaluated at %s)\n", checkSummary(c), Date(c.At))
	return bw.Flush()
}

// unsatisfiedMessage is the one-annotation summary of an unsatisfied
// requirement: its first blocking reason (with the reason's position when
// it is elsewhere) and how many more there are. seg explain has them all.
func unsatisfiedMessage(wh where, r check.Requirement) string {
	id := r.Node.ID()
	msg := fmt.Sprintf("%s %q is %s", id, r.Node.Title(), r.Verdict.Status)
	if p := PolicyText(r.Verdict); p != "" {
		msg += " (under " + p + ")"
	}
	reasons := r.Verdict.Blocking()
	if len(reasons) == 0 {
		return msg
	}
	first := reasons[0]
	msg += ": " + first.Message + " [" + first.Code.Name + "]"
	if first.Pos != r.Node.Pos() && wh.at(first.Pos).IsValid() {
		msg += " at " + wh.at(first.Pos).String()
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
func spanProps(wh where, sp source.Span, title string) []property {
	var ps []property
	start, end := wh.at(sp.Start), wh.at(sp.End)
	if start.Filename != "" {
		ps = append(ps, property{"file", start.Filename})
	}
	if start.Filename != "" && start.IsValid() {
		ps = append(ps, property{"line", strconv.Itoa(start.Line)})
		if start.Column > 0 {
			ps = append(ps, property{"col", strconv.Itoa(wh.runeCol(sp.Start))})
		}
		if end.IsValid() && sp.End.SameFile(sp.Start) && !before(end, start) {
			ps = append(ps, property{"endLine", strconv.Itoa(end.Line)})
			if end.Line == start.Line && start.Column > 0 && end.Column > start.Column {
				ps = append(ps, property{"endColumn", strconv.Itoa(wh.runeCol(sp.End))})
			}
		}
	}
	return append(ps, property{"title", title})
}

// before orders two positions of one file.
func before(a, b source.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
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
