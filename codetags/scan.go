// Package codetags finds the tags that mark code as the implementation of
// requirements (S-CORE's "req-Id:", sphinx-codelinks' "@need-ids:" and
// one-line needs, OpenFastTrace's "[impl->dsn~name~1]", LOBSTER's
// "lobster-trace:", and a team's own regular expressions) in source files,
// and makes an implementation node of each (docs/codetags.md). It reads
// source files, never RST: the scan is by bytes and lines, not by a
// language's grammar, so a tag inside a string literal is a tag, as it is
// to S-CORE's own linker.
package codetags

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/seg-trace/seg/internal/lazyre"
)

// The built-in syntaxes, as [code] tags names them.
const (
	SyntaxSCORE     = "score"
	SyntaxCodelinks = "codelinks"
	SyntaxOFT       = "oft"
	SyntaxLOBSTER   = "lobster"
	// SyntaxCustom is a team's own regular expression ([code] custom).
	SyntaxCustom = "custom"
)

// Syntaxes are the built-in syntaxes, in the order the docs list them.
var Syntaxes = []string{SyntaxSCORE, SyntaxCodelinks, SyntaxOFT, SyntaxLOBSTER}

// A Tag is one tag found in a file.
type Tag struct {
	Syntax string
	// Marker is the tag's marker as written ("# req-Id:", "@need-ids:",
	// "[impl->", "lobster-trace:", the start sequence of a one-line need,
	// or the text a custom expression matched before its capture).
	Marker string
	// Line and Col (1-based; the column counts bytes, after a byte order
	// mark) are where the tag starts.
	Line, Col int
	// Refs are the IDs the tag names, in the order written.
	Refs []Ref
	// NeedID and Title are a one-line need's own ID and title (empty for
	// every other tag).
	NeedID, Title string
	// Type is a one-line need's type field.
	Type string
	// Problem, when set, says why the tag is malformed: it makes no node,
	// and is reported (invalid-code-tag).
	Problem string
}

// A Ref is an ID a tag names and where it is written.
type Ref struct {
	ID        string
	Line, Col int
}

// Settings are what a scan looks for.
type Settings struct {
	// Syntaxes are the built-in syntaxes scanned for.
	Syntaxes map[string]bool
	// Custom are a team's own expressions: each has one capture group, the
	// list of IDs (split at commas and white space).
	Custom []*regexp.Regexp
	// Codelinks are the sphinx-codelinks projects of ubproject.toml's
	// [codelinks] table; a file under a project's Dir is scanned with its
	// analyse settings, every other file with Default.
	Codelinks []CodelinksProject
	Default   CodelinksAnalyse
}

// DefaultSettings scans for every built-in syntax, with sphinx-codelinks'
// default analyse settings.
func DefaultSettings() *Settings {
	s := &Settings{Syntaxes: map[string]bool{}, Default: DefaultAnalyse()}
	for _, n := range Syntaxes {
		s.Syntaxes[n] = true
	}
	return s
}

// analyse is the sphinx-codelinks settings the file at path is scanned with.
func (s *Settings) analyse(path string) *CodelinksAnalyse {
	best := -1
	for i := range s.Codelinks {
		d := s.Codelinks[i].Dir
		if d == "" || path == d || strings.HasPrefix(path, d+"/") {
			if best < 0 || len(d) > len(s.Codelinks[best].Dir) {
				best = i
			}
		}
	}
	if best >= 0 {
		return &s.Codelinks[best].Analyse
	}
	return &s.Default
}

// S-CORE's tags: the comment leader, one space and the marker, anywhere in
// a line; every word after it (commas are separators too) is an ID.
var scoreTags = []string{"# req-traceability:", "# req-Id:", "// req-traceability:", "// req-Id:"}

const lobsterMarker = "lobster-trace:"

// hit is a place a scan found something to look at.
type hit struct {
	off  int
	kind uint8
	n    int // which marker of the kind
}

const (
	hitSCORE uint8 = iota
	hitNeedIDs
	hitOneLine
	hitOFT
	hitLOBSTER
)

// Scan finds the tags of the file at path (a slash path relative to the
// root, which picks the sphinx-codelinks project) whose bytes are data.
// A byte order mark is skipped; lines end at LF, a CR before it is not
// part of the line.
func (s *Settings) Scan(path string, data []byte) []Tag {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	cl := s.analyse(path)
	var hits []hit
	if s.Syntaxes[SyntaxSCORE] {
		for i := 0; ; {
			j := bytes.Index(data[i:], []byte("req-"))
			if j < 0 {
				break
			}
			off := i + j
			i = off + 4
			for n, tag := range scoreTags {
				lead := strings.Index(tag, "req-")
				if off >= lead && bytes.HasPrefix(data[off-lead:], []byte(tag)) {
					hits = append(hits, hit{off - lead, hitSCORE, n})
				}
			}
		}
	}
	if s.Syntaxes[SyntaxCodelinks] {
		if cl.NeedIDRefs {
			for n, m := range cl.Markers {
				hits = findAll(hits, data, m, hitNeedIDs, n)
			}
		}
		if cl.OneLine && cl.Style.Start != "" {
			hits = findOneLine(hits, data, cl.Style.Start, cl.Style.End == "\n")
		}
	}
	if s.Syntaxes[SyntaxOFT] {
		hits = findOFT(hits, data)
	}
	if s.Syntaxes[SyntaxLOBSTER] {
		hits = findAll(hits, data, lobsterMarker, hitLOBSTER, 0)
	}
	var tags []Tag
	if len(hits) > 0 {
		slices.SortStableFunc(hits, func(a, b hit) int { return a.off - b.off })
		tags = s.tagsAt(data, hits, cl)
	}
	for _, re := range s.Custom {
		tags = append(tags, scanCustom(data, re)...)
	}
	if len(s.Custom) > 0 {
		slices.SortStableFunc(tags, func(a, b Tag) int {
			if a.Line != b.Line {
				return a.Line - b.Line
			}
			return a.Col - b.Col
		})
	}
	return tags
}

func findAll(hits []hit, data []byte, marker string, kind uint8, n int) []hit {
	m := []byte(marker)
	for i := 0; ; {
		j := bytes.Index(data[i:], m)
		if j < 0 {
			return hits
		}
		hits = append(hits, hit{i + j, kind, n})
		i += j + len(m)
	}
}

// findOneLine finds the start sequences of one-line needs; when the need
// runs to the end of the line, only those after comment decoration (no
// letter or digit, blanks, back to the line's start or a comment leader)
// are worth a look, which most '@' in code (mail addresses, decorators
// after code, "@ref" in a sentence) are not.
func findOneLine(hits []hit, data []byte, start string, toEOL bool) []hit {
	m := []byte(start)
	for i := 0; ; {
		j := bytes.Index(data[i:], m)
		if j < 0 {
			return hits
		}
		off := i + j
		i = off + len(m)
		if toEOL {
			k := off - 1
			for k >= 0 && data[k] != '\n' && data[k] < 0x80 && !isAlnum(data[k]) {
				k--
			}
			if k >= 0 && data[k] != '\n' {
				continue // a letter, a digit or a non-ASCII byte before it
			}
		}
		hits = append(hits, hit{off, hitOneLine, 0})
	}
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// findOFT finds the arrows of OpenFastTrace tags: "->" followed, after
// blanks, by a type name and '~' (most arrows in code are not).
func findOFT(hits []hit, data []byte) []hit {
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte("->"))
		if j < 0 {
			return hits
		}
		off := i + j
		i = off + 2
		k := i
		for k < len(data) && (data[k] == ' ' || data[k] == '\t') {
			k++
		}
		n := k
		for k < len(data) && isAlnum(data[k]) {
			k++
		}
		if k > n && k < len(data) && data[k] == '~' {
			hits = append(hits, hit{off, hitOFT, 0})
		}
	}
}

// lines counts lines forward through a file: the line of an offset
// not before the last one asked for.
type lines struct {
	data       []byte
	off, line  int // line holds offset off
	start, end int // the line's bounds (end before its LF and a CR)
}

func (l *lines) at(off int) {
	if off < l.off {
		panic("codetags: offsets out of order")
	}
	l.line += bytes.Count(l.data[l.off:off], []byte{'\n'})
	l.off = off
	l.start = bytes.LastIndexByte(l.data[:off], '\n') + 1
	e := bytes.IndexByte(l.data[off:], '\n')
	if e < 0 {
		l.end = len(l.data)
	} else {
		l.end = off + e
	}
	if l.end > l.start && l.data[l.end-1] == '\r' {
		l.end--
	}
}

// tagsAt reads the tag at each hit, in order.
func (s *Settings) tagsAt(data []byte, hits []hit, cl *CodelinksAnalyse) []Tag {
	l := &lines{data: data, line: 1}
	var tags []Tag
	var seen [4]int // the line each S-CORE tag was last found on
	needIDsLine, needIDsEnd := 0, 0
	for _, h := range hits {
		if h.off < l.off {
			continue
		}
		l.at(h.off)
		if h.off >= l.end {
			continue // inside a CRLF
		}
		col := h.off - l.start + 1
		line := data[l.start:l.end]
		switch h.kind {
		case hitSCORE:
			// Only the first of each tag on a line counts, as in S-CORE.
			if seen[h.n] == l.line {
				continue
			}
			seen[h.n] = l.line
			tag := scoreTags[h.n]
			rest := h.off + len(tag)
			t := Tag{Syntax: SyntaxSCORE, Marker: tag, Line: l.line, Col: col}
			t.Refs = words(data, rest, l.end, l, false)
			tags = append(tags, t)
		case hitNeedIDs:
			m := cl.Markers[h.n]
			rest := h.off + len(m)
			t := Tag{Syntax: SyntaxCodelinks, Marker: m, Line: l.line, Col: col}
			t.Refs = words(data, rest, l.end, l, true)
			tags = append(tags, t)
			needIDsLine, needIDsEnd = l.line, rest
		case hitOneLine:
			if l.line == needIDsLine && h.off < needIDsEnd {
				continue // the '@' of a "@need-ids:"
			}
			if t, ok := oneLine(line, h.off-l.start, &cl.Style, cl.styleSet); ok {
				t.Line = l.line
				for i := range t.Refs {
					t.Refs[i].Line = l.line
				}
				tags = append(tags, t)
			}
		case hitOFT:
			if t, ok := oft(line, h.off-l.start); ok {
				t.Line = l.line
				for i := range t.Refs {
					t.Refs[i].Line = l.line
				}
				// A tag is found once, whatever the arrows in it.
				if n := len(tags); n == 0 || tags[n-1].Syntax != SyntaxOFT || tags[n-1].Line != t.Line || tags[n-1].Col != t.Col {
					tags = append(tags, t)
				}
			}
		case hitLOBSTER:
			rest := h.off + len(lobsterMarker)
			t := Tag{Syntax: SyntaxLOBSTER, Marker: lobsterMarker, Line: l.line, Col: col}
			t.Refs = words(data, rest, l.end, l, true)
			tags = append(tags, t)
		}
	}
	for i := range tags {
		if tags[i].Problem == "" && len(tags[i].Refs) == 0 && tags[i].NeedID == "" {
			tags[i].Problem = "the tag names no ID"
		}
	}
	return tags
}

// words are the IDs of data[from:to], on line l: the words between
// commas and white space. closers drops a comment's end ("*/", "-->")
// at the end of the line first.
func words(data []byte, from, to int, l *lines, closers bool) []Ref {
	seg := data[from:to]
	if closers {
		t := bytes.TrimRightFunc(seg, unicode.IsSpace)
		for _, c := range []string{"*/", "-->"} {
			if bytes.HasSuffix(t, []byte(c)) {
				t = t[:len(t)-len(c)]
				break
			}
		}
		seg = t
	}
	var refs []Ref
	for i := 0; i < len(seg); {
		r, n := utf8.DecodeRune(seg[i:])
		if r == ',' || unicode.IsSpace(r) {
			i += n
			continue
		}
		j := i
		for j < len(seg) {
			r, n := utf8.DecodeRune(seg[j:])
			if r == ',' || unicode.IsSpace(r) {
				break
			}
			j += n
		}
		refs = append(refs, Ref{ID: string(seg[i:j]), Line: l.line, Col: from + i - l.start + 1})
		i = j
	}
	return refs
}

// oft reads an OpenFastTrace coverage tag around the arrow at line[arrow]:
// "[impl->dsn~name~1]", "[impl~own-name~1->dsn~name~1]", with blanks
// allowed around the parts and a needed-types list ">>impl,utest" before
// the closing bracket. The ID it names is the covered item's,
// "dsn~name~1".
func oft(line []byte, arrow int) (Tag, bool) {
	open := bytes.LastIndexByte(line[:arrow], '[')
	if open < 0 || bytes.IndexByte(line[open:arrow], ']') >= 0 {
		return Tag{}, false
	}
	close := bytes.IndexByte(line[arrow:], ']')
	if close < 0 {
		return Tag{}, false
	}
	close += arrow
	left := strings.TrimSpace(string(line[open+1 : arrow]))
	if !oftCovering.MatchString(left) {
		return Tag{}, false
	}
	right := line[arrow+2 : close]
	skip := len(right) - len(bytes.TrimLeft(right, " \t"))
	covered := bytes.TrimSpace(right)
	if i := bytes.Index(covered, []byte(">>")); i >= 0 {
		if !oftNeeded.Match(bytes.TrimSpace(covered[i+2:])) {
			return Tag{}, false
		}
		covered = bytes.TrimSpace(covered[:i])
	}
	if !oftItem.Match(covered) {
		return Tag{}, false
	}
	return Tag{Syntax: SyntaxOFT, Marker: string(line[open : arrow+2]), Col: open + 1,
		Refs: []Ref{{ID: string(covered), Col: arrow + 2 + skip + 1}}}, true
}

var (
	oftCovering = lazyre.New(`^[A-Za-z][A-Za-z0-9]*(\s*~\s*[A-Za-z0-9_.\-]+\s*~\s*[0-9]+)?$`)
	oftItem     = lazyre.New(`^[A-Za-z][A-Za-z0-9]*~[A-Za-z0-9_.\-]+~[0-9]+$`)
	oftNeeded   = lazyre.New(`^[A-Za-z][A-Za-z0-9]*(\s*,\s*[A-Za-z][A-Za-z0-9]*)*$`)
)

// scanCustom finds the matches of a team's expression: its one capture
// group is the list of IDs.
func scanCustom(data []byte, re *regexp.Regexp) []Tag {
	if lit, _ := re.LiteralPrefix(); lit != "" && !bytes.Contains(data, []byte(lit)) {
		return nil
	}
	var tags []Tag
	l := &lines{data: data, line: 1}
	for _, m := range re.FindAllSubmatchIndex(data, -1) {
		if len(m) < 4 || m[0] < l.off {
			continue
		}
		l.at(m[0])
		t := Tag{Syntax: SyntaxCustom, Line: l.line, Col: m[0] - l.start + 1}
		if m[2] >= 0 {
			t.Marker = string(data[m[0]:m[2]])
			// The IDs are read on the line each starts on.
			ll := *l
			t.Refs = customWords(data, m[2], m[3], &ll)
		}
		tags = append(tags, t)
	}
	for i := range tags {
		if len(tags[i].Refs) == 0 {
			tags[i].Problem = "the tag names no ID"
		}
	}
	return tags
}

// customWords splits a capture that may span lines.
func customWords(data []byte, from, to int, l *lines) []Ref {
	var refs []Ref
	for from < to {
		e := bytes.IndexByte(data[from:to], '\n')
		end := to
		if e >= 0 {
			end = from + e
		}
		if from > l.off {
			l.at(from)
		}
		refs = append(refs, words(data, from, end, l, false)...)
		from = end + 1
	}
	return refs
}
