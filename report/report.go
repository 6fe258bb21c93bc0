// Package report renders one run of seg (a *check.Check: diagnostics,
// verdicts, the evidence behind them, the graph) in every output format.
// Every format renders the same Check, so they cannot disagree, and none
// decides anything: the rules are evaluate's. No renderer probes the
// terminal: the caller says whether to color.
package report

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/source"
)

// Date formats an evaluation date.
func Date(t time.Time) string { return t.Format(time.DateOnly) }

func verdictWord(ok bool) string {
	if ok {
		return "satisfied"
	}
	return "unsatisfied"
}

// summary is the figures of a summary line: "12 requirements: 9
// satisfied, 1 failing, 2 unproven; 0 errors, 1 warning".
func summary(n check.Counts) string {
	return fmt.Sprintf("%s: %d satisfied, %d failing, %d unproven; %s, %s",
		plural(n.Requirements, "requirement"), n.Satisfied, n.Failing, n.Unproven,
		plural(n.Errors, "error"), plural(n.Warnings, "warning"))
}

// checkSummary is the summary line of a check: the figures, and for a
// narrowed check what it counts: the requirements the files a commit
// touches bear on, those a --filter selects, or both.
func checkSummary(c *check.Check) string {
	n := c.Counts()
	s := checkSummaryOf(c, n)
	if k := len(c.Suppressed); k > 0 {
		s += fmt.Sprintf(", %d suppressed", k)
	}
	if c.ReportsOnly() {
		// The exit code is 0 whatever was found: say so where it shows.
		s += "; reporting only (--fail-on none): nothing fails the check"
	}
	return s
}

func checkSummaryOf(c *check.Check, n check.Counts) string {
	var which []string
	if c.NarrowedToFiles() {
		which = append(which, "in the changed files")
	}
	if c.FilterText() != "" {
		which = append(which, "selected by --filter")
	}
	if len(which) == 0 {
		return summary(n)
	}
	head := plural(n.Requirements, "requirement")
	return head + " " + strings.Join(which, " and ") + strings.TrimPrefix(summary(n), head)
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// where resolves the positions of one check and reads the lines they are
// on, from the file set's one line table: a snippet shows the line seg
// counted.
type where struct {
	fs *source.FileSet
	c  *check.Check // for what a position alone does not say
}

func whereOf(c *check.Check) where { return where{c.Files, c} }

func (w where) at(p source.Pos) source.Position { return w.fs.Position(p) }

// pos is p as "file:line:col" for the text formats: the path escaped.
func (w where) pos(p source.Pos) string { return Printable(w.at(p).String()) }

// line is the text of the line p is on.
func (w where) line(p source.Pos) ([]byte, bool) {
	f := w.fs.File(p)
	pos := w.fs.Position(p)
	if f == nil || !pos.IsValid() {
		return nil, false
	}
	return f.LineText(pos.Line)
}

// runeCol is p's column counted in Unicode code points (1-based), as SARIF
// and GitHub count; the byte column when the line cannot be read.
func (w where) runeCol(p source.Pos) int {
	pos := w.at(p)
	if pos.Column < 1 {
		return pos.Column
	}
	line, ok := w.line(p)
	if !ok {
		return pos.Column
	}
	off := pos.Column - 1
	if off <= len(line) {
		return utf8.RuneCount(line[:off]) + 1
	}
	// Past the end of the line (an exclusive end at the line's end, or a
	// stale position): count the bytes beyond as one column each.
	return utf8.RuneCount(line) + off - len(line) + 1
}
