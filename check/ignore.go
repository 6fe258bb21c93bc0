package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seg-trace/seg/config"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/glob"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// CodeUnusedIgnore is a suppression that matches no finding: the finding
// it was written for is gone (or was never there), and a stale
// suppression would silently hide the next one of its kind.
var CodeUnusedIgnore = diag.NewWarning("unused-ignore", "a suppression (a .. seg: ignore comment or a [[check.ignore]] table) that matches no finding")

// A suppression says that some findings are known and accepted, and why:
// a ".. seg: ignore[CODE,...] reason" comment in the tree (parser.Ignore)
// or a [[check.ignore]] table of seg.toml (config.Ignore). What it matches
// moves from Diagnostics to Suppressed: not counted, not gated, listed in
// every format with where it was suppressed and why. Verdicts are never
// suppressed: a requirement a suppressed finding leaves unsatisfied stays
// unsatisfied.
type suppression struct {
	codes  []string
	by     string // where it is written, as "file:line"
	reason string
	match  func(d diag.Diagnostic) bool
	at     source.Span // where unused-ignore points
	inRST  bool        // a comment, not a [[check.ignore]] table
	used   bool
}

// ignore applies the tree's suppressions to c.Diagnostics.
func (c *Check) ignore(t *Tree) {
	var rules []*suppression
	var bad diag.List
	for _, f := range c.Parsed {
		for _, ig := range f.Ignores {
			s, d := c.commentSuppression(f, ig)
			if d != nil {
				bad = append(bad, *d)
				continue
			}
			rules = append(rules, s)
		}
	}
	for _, ig := range c.Config.Ignores {
		rules = append(rules, c.tableSuppression(t, ig))
	}
	if len(rules) == 0 && len(bad) == 0 {
		return
	}
	kept := c.Diagnostics[:0:0]
	for _, d := range c.Diagnostics {
		if s := firstMatch(rules, d); s != nil {
			s.used = true
			c.Suppressed = append(c.Suppressed, Suppressed{Diagnostic: d, By: s.by, Reason: s.reason, InSource: s.inRST})
			continue
		}
		kept = append(kept, d)
	}
	for _, s := range rules {
		if !s.used {
			kept = append(kept, diag.Diagnostic{Code: CodeUnusedIgnore, Span: s.at,
				Message: fmt.Sprintf("the suppression of %s matches no finding", strings.Join(s.codes, ", ")),
				Detail:  "What it was written for is no longer reported (or never was here): remove it, so that it cannot hide the next finding of its kind."})
		}
	}
	c.Diagnostics = append(kept, bad...)
	c.Diagnostics.Sort(c.Files)
}

// firstMatch is the first suppression that matches d, nil when none
// does. A finding about the suppressions themselves is never suppressed.
func firstMatch(rules []*suppression, d diag.Diagnostic) *suppression {
	if d.Code == CodeUnusedIgnore || d.Code == parser.CodeBadIgnore || config.IgnorableCode(d.Code.Name) != "" {
		return nil
	}
	for _, s := range rules {
		if slices.Contains(s.codes, d.Code.Name) && s.match(d) {
			return s
		}
	}
	return nil
}

// commentSuppression is the suppression a ".. seg: ignore" comment
// writes: on the next node of its file (from its ".." to the next node's,
// or the end of the file), or on the line it names. A code seg does not
// have, or no node after the comment, is bad-ignore.
func (c *Check) commentSuppression(f *parser.File, ig parser.Ignore) (*suppression, *diag.Diagnostic) {
	for _, code := range ig.Codes {
		if why := config.IgnorableCode(code); why != "" {
			d := diag.New(parser.CodeBadIgnore, ig.Span, "suppression comment %s, so it suppresses nothing", why)
			return nil, &d
		}
	}
	pos := c.Files.Position(ig.Span.Start)
	s := &suppression{codes: ig.Codes, reason: ig.Reason, at: ig.Span, inRST: true,
		by: fmt.Sprintf("%s:%d", pos.Filename, pos.Line)}
	src := f.Source
	if ig.Line > 0 {
		line := ig.Line
		s.match = func(d diag.Diagnostic) bool {
			return c.Files.File(d.Span.Start) == src && c.Files.Position(d.Span.Start).Line == line
		}
		return s, nil
	}
	var starts []int
	for _, ns := range [][]parser.Node{f.Nodes, f.Rejected} {
		for i := range ns {
			starts = append(starts, ns[i].Pos.Offset())
		}
	}
	slices.Sort(starts)
	from, to := -1, src.Size()+1
	if i, _ := slices.BinarySearch(starts, ig.Span.End.Offset()); i < len(starts) {
		from = starts[i]
		if j, _ := slices.BinarySearch(starts, from+1); j < len(starts) {
			to = starts[j]
		}
	}
	if from < 0 {
		d := diag.New(parser.CodeBadIgnore, ig.Span, "suppression comment with no node after it, so it suppresses nothing")
		d.Detail = "A \".. seg: ignore[CODE,...] reason\" comment applies to the next node of its file; to suppress a finding on a line, write line=N."
		return nil, &d
	}
	s.match = func(d diag.Diagnostic) bool {
		off := d.Span.Start.Offset()
		return c.Files.File(d.Span.Start) == src && off >= from && off < to
	}
	return s, nil
}

// tableSuppression is the suppression a [[check.ignore]] table writes:
// on every file its paths match.
func (c *Check) tableSuppression(t *Tree, ig config.Ignore) *suppression {
	s := &suppression{codes: ig.Codes, reason: ig.Reason,
		by: fmt.Sprintf("%s:%d", t.rel(c.Config.File), ig.Line)}
	if sp, ok := t.fileLine(c.Files, c.Config.File, ig.Line); ok {
		s.at = sp
	}
	s.match = func(d diag.Diagnostic) bool {
		f := c.Files.File(d.Span.Start)
		if f == nil {
			return false
		}
		for _, p := range ig.Paths {
			if glob.Match(p, f.Name()) {
				return true
			}
		}
		return false
	}
	return s
}
