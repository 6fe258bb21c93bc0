package model

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/source"
)

// CodeMalformedLink is the error of a link entry sphinx-needs refuses.
var CodeMalformedLink = diag.NewError("malformed-link", "a sphinx-needs link entry with an unclosed bracket or text after its condition")

// Entry is one entry of a link value. Offsets are into the value given to
// SplitLinks (its lines joined with "\n"), so that the caller, which knows
// where each byte of the value came from, can place the entry exactly.
type Entry struct {
	// Start and End delimit the entry, without the white space around it.
	Start, End int
	// ID is the target; Part the need part after its first dot
	// ("ID.part"); Condition what the brackets after it hold. A dynamic
	// or variant function is kept whole in ID.
	ID, Part, Condition string
	// StateStart and StateEnd delimit seg's "(state)" suffix, parentheses
	// included, when the link type is Stateful and the entry has one;
	// StateStart is -1 otherwise. StateText is what the parentheses hold.
	StateStart, StateEnd int
	StateText            string
}

// Problem is an entry sphinx-needs refuses, at value[Start:End].
type Problem struct {
	Start, End int
	Message    string
}

// Diagnostic is the malformed-link error of p, at sp (where the caller
// found value[Start:End]).
func (p Problem) Diagnostic(sp source.Span) diag.Diagnostic {
	return diag.Diagnostic{Code: CodeMalformedLink, Span: sp, Message: p.Message,
		Detail: "sphinx-needs does not accept this entry; seg reads the target ID before the bracket and ignores the rest."}
}

// IsFunction reports whether a link target is a sphinx-needs dynamic
// function ("[[copy('id')]]"), variant function ("<<...>>") or variant
// data reference ("<{ var.links }>") rather than an ID.
func IsFunction(target string) bool {
	return strings.HasPrefix(target, "[[") || strings.HasPrefix(target, "<<") || IsVariantData(target)
}

// IsVariantData reports whether a link target is a variant data reference
// ("<{ var.links }>").
func IsVariantData(target string) bool { return strings.HasPrefix(target, "<{") }

// SplitLinks splits the value of a link option (of link type lt, named
// option) into entries, as sphinx-needs 8 does (docs/sphinx-needs.md,
// "Link values"):
//
//   - entries are separated by ",", ";" or "|"; white space and line
//     breaks around them are ignored, empty entries skipped;
//   - an entry that starts with "[[" (a dynamic function), "<<" (a
//     variant function) or "<{" (a variant data reference) runs to the
//     matching "]]", ">>" or "}>" and the next separator after it,
//     separators inside included; it is kept whole;
//   - otherwise the entry is an address, ID or ID.part (split at the first
//     dot), optionally followed by a condition in brackets: n opening
//     brackets open it and the first run of at least n closing brackets
//     closes it (its last n brackets), so "ID[[a[0]]]" has the condition
//     "a[0]". Separators inside a condition do not split. A link type
//     whose parse_conditions is false reads no condition: the brackets
//     are part of the ID.
//
// On a Stateful link type, seg's own "ID (state)" suffix is read too. An
// unclosed bracket or text after a condition is a Problem (the error
// malformed-link); the entry is still kept. An entry with no ID is a
// Problem too; it is returned with ID "" (its state is still to be
// checked) and must make no link.
func SplitLinks(val []byte, option string, lt *LinkType) ([]Entry, []Problem) {
	s := splitter{val: val, option: option}
	stateful := lt.Stateful()
	n := len(val)
	out := make([]Entry, 0, 1+bytes.Count(val, []byte{','})+bytes.Count(val, []byte{';'})+bytes.Count(val, []byte{'|'}))
	for i := 0; i < n; {
		if isSpace(val[i]) || isSep(val[i]) {
			i++
			continue
		}
		start := i
		l := Entry{StateStart: -1, StateEnd: -1}
		if bytes.HasPrefix(val[i:], []byte("[[")) || bytes.HasPrefix(val[i:], []byte("<<")) || bytes.HasPrefix(val[i:], []byte("<{")) {
			end := s.function(i)
			l.Start, l.End = s.trim(start, end)
			l.ID = oneLine(val[l.Start:l.End])
			out = append(out, l)
			i = end
			continue
		}
		// The address: up to a separator or an opening bracket (with
		// parse_conditions false, brackets are part of it).
		j := i
		for j < n && !isSep(val[j]) && (val[j] != '[' || lt.NoConditions) {
			j++
		}
		addrStart, addrEnd := s.trim(start, j)
		end := j
		if j < n && val[j] == '[' {
			var after int
			l.Condition, end, after = s.condition(start, j)
			if after >= 0 {
				if ta, tz := s.trim(after, end); ta < tz {
					if stateful && val[ta] == '(' && val[tz-1] == ')' {
						l.StateStart, l.StateEnd = ta, tz
					} else {
						s.malformed(start, tz, "text after the condition")
					}
				}
			}
		} else if stateful && addrEnd > addrStart && val[addrEnd-1] == ')' {
			if q := bytes.LastIndexByte(val[addrStart:addrEnd], '('); q > 0 {
				ie := addrStart + q
				l.StateStart, l.StateEnd = ie, addrEnd
				for ie > addrStart && isSpace(val[ie-1]) {
					ie--
				}
				addrEnd = ie
			}
		}
		l.Start, l.End = s.trim(start, end)
		if l.StateStart >= 0 {
			l.StateText = oneLine(bytes.TrimSpace(val[l.StateStart+1 : l.StateEnd-1]))
		}
		addr := oneLine(val[addrStart:addrEnd])
		if id, part, ok := strings.Cut(addr, "."); ok {
			l.ID, l.Part = id, part
		} else {
			l.ID = addr
		}
		i = end
		if l.ID == "" {
			s.malformed(l.Start, l.End, "no ID")
		}
		out = append(out, l)
	}
	return out, s.problems
}

// splitter holds what SplitLinks' steps share.
type splitter struct {
	val      []byte
	option   string
	problems []Problem
}

func (s *splitter) malformed(a, z int, why string) {
	s.problems = append(s.problems, Problem{Start: a, End: z,
		Message: fmt.Sprintf("malformed link entry %q in \":%s:\" (%s)", oneLine(s.val[a:z]), s.option, why)})
}

// trim narrows val[a:z] to what is not white space.
func (s *splitter) trim(a, z int) (int, int) {
	for a < z && isSpace(s.val[a]) {
		a++
	}
	for z > a && isSpace(s.val[z-1]) {
		z--
	}
	return a, z
}

// toSep is the offset of the first separator from i, or the value's end.
func (s *splitter) toSep(i int) int {
	for i < len(s.val) && !isSep(s.val[i]) {
		i++
	}
	return i
}

// function reads the dynamic or variant function at i and returns where
// its entry ends: at the separator after its closing "]]" or ">>".
func (s *splitter) function(i int) int {
	closer := []byte("]]")
	switch {
	case s.val[i] == '<' && s.val[i+1] == '{':
		closer = []byte("}>")
	case s.val[i] == '<':
		closer = []byte(">>")
	}
	if j := bytes.Index(s.val[i+2:], closer); j >= 0 {
		return s.toSep(i + 2 + j + 2)
	}
	s.malformed(i, len(s.val), fmt.Sprintf("unclosed %q", s.val[i:i+2]))
	return len(s.val)
}

// condition reads the bracketed condition that opens at j (the entry
// starts at start). It returns the condition, where the entry ends, and
// where the text after the closing brackets starts (-1 when they are not
// closed: then the condition is the rest of the entry).
func (s *splitter) condition(start, j int) (cond string, end, after int) {
	val, n := s.val, len(s.val)
	depth := 0
	for j+depth < n && val[j+depth] == '[' {
		depth++
	}
	cs := j + depth
	ce := -1
	after = n
	for k := cs; k < n; {
		if val[k] != ']' {
			k++
			continue
		}
		r := k
		for r < n && val[r] == ']' {
			r++
		}
		if r-k >= depth {
			ce, after = r-depth, r
			break
		}
		k = r
	}
	end = s.toSep(after)
	if ce < 0 {
		s.malformed(start, end, "unclosed \"[\"")
		return oneLine(bytes.TrimSpace(val[cs:end])), end, -1
	}
	return oneLine(bytes.TrimSpace(val[cs:ce])), end, after
}

// isSpace is white space around entries: blanks and line ends (a value's
// lines are joined with "\n").
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isSep(c byte) bool { return c == ',' || c == ';' || c == '|' }

// oneLine turns every run of white space (line ends included) into one
// space, for an entry that spans lines.
func oneLine(v []byte) string {
	if bytes.IndexAny(v, " \t\n\r") < 0 {
		return string(v)
	}
	return strings.Join(strings.Fields(string(v)), " ")
}
