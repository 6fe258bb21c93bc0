package parser

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/source"
)

// CodeBadIgnore is a seg suppression comment that cannot be read: it
// suppresses nothing, so whatever it was meant to hide is still reported.
var CodeBadIgnore = diag.NewWarning("bad-ignore", "a \".. seg: ignore[CODE,...] reason\" comment that cannot be read (no codes, no reason, a bad line=N): it suppresses nothing")

// Ignore is a suppression comment, `.. seg: ignore[CODE,...] reason`
// (docs/check.md, "Suppressing a finding"). To docutils it is a comment
// like any other; to seg it says that the findings of those codes on the
// next node of the file (or on the line that line=N names) are known, and
// why. Only a well-formed one is kept: a malformed one is bad-ignore.
type Ignore struct {
	Codes  []string
	Reason string
	// Line is the line that line=N names, 0 for the next node.
	Line int
	// Span covers the comment's first line from "seg:".
	Span source.Span
}

// ignorePrefix starts a suppression comment's text.
const ignorePrefix = "seg: ignore"

// ignoreComment reads the comment whose text starts at byte at of line i
// and whose indented lines run to hi-1, when it is a suppression comment.
func (s *scanner) ignoreComment(i, at, hi int) {
	end := int(s.lines[i].end)
	text := s.src[at:end]
	if !bytes.HasPrefix(text, []byte(ignorePrefix)) {
		return
	}
	rest := string(text[len(ignorePrefix):])
	if rest != "" && rest[0] != '[' && rest[0] != ' ' && rest[0] != '\t' {
		return // "seg: ignored ..." is prose
	}
	// The reason may go on in the comment's indented lines.
	for li := i + 1; li < hi && li < s.nMain; li++ {
		if s.lines[li].ind >= 0 {
			rest += " " + string(s.src[s.lines[li].cs:s.lines[li].end])
		}
	}
	ig, problem := readIgnore(rest)
	if problem != "" {
		s.diags = append(s.diags, lexDiag{code: CodeBadIgnore, start: at, end: end,
			msg:    "suppression comment " + problem + ", so it suppresses nothing",
			detail: "Write \".. seg: ignore[CODE,...] reason\" (the findings of those codes on the next node) or \".. seg: ignore[CODE,...] line=N reason\" (on line N of this file); the reason is required."})
		return
	}
	ig.Span = s.sf.Span(at, end)
	s.ignores = append(s.ignores, ig)
}

// readIgnore reads what follows "seg: ignore": "[codes] [line=N] reason".
func readIgnore(rest string) (Ignore, string) {
	var ig Ignore
	if !strings.HasPrefix(rest, "[") {
		return ig, "names no codes (want ignore[CODE,...])"
	}
	list, after, ok := strings.Cut(rest[1:], "]")
	if !ok {
		return ig, "has no \"]\" after its codes"
	}
	for _, c := range strings.Split(list, ",") {
		if c = strings.TrimSpace(c); c != "" {
			ig.Codes = append(ig.Codes, c)
		}
	}
	if len(ig.Codes) == 0 {
		return ig, "names no codes"
	}
	after = strings.TrimSpace(after)
	if n, ok := strings.CutPrefix(after, "line="); ok {
		num, tail, _ := strings.Cut(n, " ")
		line, err := strconv.Atoi(num)
		if err != nil || line < 1 {
			return ig, "has line=" + strconv.Quote(num) + ", which is no line number"
		}
		ig.Line = line
		after = strings.TrimSpace(tail)
	}
	if after == "" {
		return ig, "gives no reason"
	}
	ig.Reason = after
	return ig, ""
}
