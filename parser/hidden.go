package parser

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/seg-trace/seg/diag"
)

// This file finds what docutils reads differently from how it looks: a
// line that reads as a seg directive where docutils sees text, a comment
// or a literal block (hidden-directive), and a line that reads as an
// option of the node above it but is not in its option block
// (misplaced-option). Both are only ever looked for where the lexer has
// already decided, as docutils does, that there is no directive: they
// explain a node that is missing, they never make or remove one.

// A form is how a line reads as a seg directive.
type form uint8

const (
	formNone      form = iota
	formDirective      // ".. name:: title": docutils' own directive syntax
	formNoSpace        // "..name:: title": no space after the ".."
	formOneColon       // ".. name: title": one colon
	formTight          // ".. name::title": no space after the "::"
)

// lookalike is a line that reads as a seg directive: the name's bytes and
// the span to point at (from the ".." to the end of the colons).
type lookalike struct {
	form                 form
	start, end, ns, ne   int
	nameText, directText string
}

// looksLike reads the text at src[at:end] (a line's text, from its first
// character) as a seg directive, in any of the forms above.
func (s *scanner) looksLike(at, end int) (lookalike, bool) {
	t := s.src[at:end]
	if len(t) < 4 || t[0] != '.' || t[1] != '.' {
		return lookalike{}, false
	}
	i := 2
	for i < len(t) && isWS(t[i]) {
		i++
	}
	spaced := i > 2
	ne := simpleName(t[i:])
	if ne == 0 {
		return lookalike{}, false
	}
	name := t[i : i+ne]
	if _, ok := s.cfg.Directives[string(s.lowerName(name))]; !ok {
		return lookalike{}, false
	}
	j := i + ne
	if j < len(t) && t[j] == ' ' && j+1 < len(t) && t[j+1] == ':' {
		j++
	}
	colons := 0
	for j+colons < len(t) && t[j+colons] == ':' && colons < 3 {
		colons++
	}
	k := j + colons
	endsWell := k == len(t) || isWS(t[k])
	l := lookalike{start: at, end: at + k, ns: at + i, ne: at + i + ne, nameText: string(name)}
	switch {
	case colons == 2 && endsWell && spaced:
		l.form = formDirective
	case colons == 2 && !spaced:
		l.form = formNoSpace
	case colons == 1 && endsWell && spaced:
		l.form = formOneColon
	case colons == 2 && spaced:
		l.form = formTight
	default:
		return lookalike{}, false
	}
	return l, true
}

// hide records a hidden-directive warning for l with the reason and fix:
// a directive inside a comment or a literal block, which is often
// written so on purpose (an example, a node taken out for a while).
func (s *scanner) hide(l lookalike, msg, detail string) {
	s.diags = append(s.diags, lexDiag{code: CodeHiddenDirective, start: l.start, end: l.end,
		msg: fmt.Sprintf("%q %s", string(s.src[l.start:l.end]), msg), detail: detail})
}

// misspell records a misspelled-directive error for l: a line written to
// be a directive that docutils does not read as one (a typo in its
// marker, no blank line before it). Nobody writes that on purpose, and
// the node it was meant to be (a failed outcome, say) is missing from the
// trace, so the check must not pass.
func (s *scanner) misspell(l lookalike, msg, detail string) {
	s.diags = append(s.diags, lexDiag{code: CodeMisspelledDirective, start: l.start, end: l.end,
		msg: fmt.Sprintf("%q %s", string(s.src[l.start:l.end]), msg), detail: detail})
}

// typo reports a line that is one character away from a directive, li
// being its line. A line with one colon is a typo only when an option
// block under it shows that a node was meant (meant); the other forms
// keep the directive's name and its "::" exactly, which prose and
// comments do not.
func (s *scanner) typo(l lookalike, li int, where string) bool {
	switch l.form {
	case formOneColon:
		if !s.meant(li, l.start, l.nameText) {
			return false
		}
	}
	switch l.form {
	case formNoSpace:
		s.misspell(l, "has no space after \"..\", so docutils reads it as "+where+"; write \".. "+l.nameText+"::\"",
			"An explicit markup block starts with \"..\" and a space; without the space this line is ordinary text and no node is made of it.")
	case formOneColon:
		s.misspell(l, "has one colon, so docutils reads it as a comment; write \".. "+l.nameText+"::\"",
			"A directive's name ends with two colons; with one, the line is a comment and no node is made of it.")
	case formTight:
		s.misspell(l, "has no space after \"::\", so docutils reads it as a comment; add a space after \"::\"",
			"A directive's \"::\" must be followed by a space or the end of the line; otherwise the line is a comment and no node is made of it.")
	default:
		return false
	}
	return true
}

// quickDot is true when line li's text may start with "..": the cheap
// test before looksLike, on every line of a paragraph.
func (s *scanner) quickDot(bl block, li int) bool {
	p := s.textAt(bl, li)
	return p+1 < int(s.lines[li].end) && s.src[p] == '.' && s.src[p+1] == '.'
}

// hiddenInParagraph looks at the lines lo..hi-1 of a paragraph (or a
// definition list term) starting at line first.
func (s *scanner) hiddenInParagraph(bl block, first, lo, hi int) {
	if first+1 < hi {
		s.garbled(bl, first, first+1)
	}
	for li := lo; li < hi; li++ {
		if !s.quickDot(bl, li) {
			continue
		}
		l, ok := s.looksLike(s.textAt(bl, li), int(s.lines[li].end))
		if !ok {
			continue
		}
		if l.form == formDirective && li > first {
			s.misspell(l, fmt.Sprintf("continues the paragraph of line %d, so docutils reads it as text; add a blank line before it", s.lineNo(first)),
				"An explicit markup block (a directive) starts only after a blank line, at the start of the file or of an indented block; this line continues the paragraph above it, so no node is made of it.")
			continue
		}
		s.typo(l, li, "text")
	}
}

// hiddenInComment looks at a comment: its first line from byte at, and
// its indented lines lo..hi-1.
func (s *scanner) hiddenInComment(bl block, i, at, lo, hi int) {
	end := int(s.lines[i].end)
	if at+1 < end && s.src[at] == '.' && s.src[at+1] == '.' {
		if l, ok := s.looksLike(at, end); ok && l.form == formDirective {
			s.hide(l, "is commented out by the \"..\" before it, so docutils reads no node; remove the second \"..\"",
				"A line that starts with \"..\" and text that is not a directive is a comment, and so is the rest of its line.")
			return
		}
	}
	if l, ok := s.looksLike(s.textAt(bl, i), end); ok && s.typo(l, i, "a comment") {
		return
	}
	if s.damagedInComment(bl, i, lo, hi) {
		return
	}
	for li := lo; li < hi; li++ {
		if s.lines[li].ind < 0 || s.src[s.lines[li].cs] != '.' {
			continue
		}
		if l, ok := s.looksLike(int(s.lines[li].cs), int(s.lines[li].end)); ok && l.form == formDirective {
			s.hide(l, fmt.Sprintf("is inside the comment that starts at line %d, so docutils reads it as comment text; remove the comment or un-indent this block", s.lineNo(i)),
				"The lines indented under a \"..\" comment belong to the comment, and nothing in a comment is a node.")
		}
	}
}

// hiddenInLiteral looks at the lines lo..hi-1 of the literal block that
// the "::" ending line colon announces.
func (s *scanner) hiddenInLiteral(colon, lo, hi int, quoted bool) {
	for li := lo; li < hi; li++ {
		if s.lines[li].ind < 0 || s.src[s.lines[li].cs] != '.' {
			continue
		}
		if l, ok := s.looksLike(int(s.lines[li].cs), int(s.lines[li].end)); ok && l.form == formDirective {
			what := "literal block"
			if quoted {
				what = "quoted literal block (unindented lines that start with the same punctuation)"
			}
			s.hide(l, fmt.Sprintf("is inside the %s that the \"::\" at the end of line %d starts, so docutils reads it as text; end line %d with one colon", what, s.lineNo(colon), s.lineNo(colon)),
				"A paragraph that ends with \"::\" makes the block after it a literal block, and nothing in a literal block is a node. To show a directive as an example on purpose, put it in a \".. code-block:: rst\" directive, about which seg says nothing.")
		}
	}
}

// hiddenInDoctest looks at the lines after the first of the doctest block
// (a ">>>" line and the lines up to the next blank one) at lines i..e-1: a
// seg directive there is doctest text. Writing one right after an example
// is easy, and so is showing one in an example's output, so it is a
// warning, and only where an option block with an :id: (or an option of
// the kind) under it shows that a node was meant.
func (s *scanner) hiddenInDoctest(bl block, i, e int) {
	for li := i + 1; li < e; li++ {
		if s.blankAt(bl, li) || !s.quickDot(bl, li) {
			continue
		}
		l, ok := s.looksLike(s.textAt(bl, li), int(s.lines[li].end))
		if !ok || l.form != formDirective || !s.meant(li, l.start, l.nameText) {
			continue
		}
		s.hide(l, fmt.Sprintf("is inside the doctest block that the \">>>\" of line %d starts, so docutils reads it as text; add a blank line before it", s.lineNo(i)),
			"A line that starts with \">>>\" starts a doctest block, which runs to the next blank line; nothing in it is a node.")
	}
}

// lineNo is the 1-based line number of line li; a table cell's line
// counts as the physical line it is on.
func (s *scanner) lineNo(li int) int {
	if li < s.nMain {
		return li + 1
	}
	return s.lineOf(int(s.lines[li].start)) + 1
}

// misplaced is an option line docutils does not read as an option of the
// node above it.
type misplaced struct {
	name       string // lower-cased
	start, end int    // the field name's bytes (inside the colons)
	msg        string // why, and the fix
}

// takesOption reports whether the node made by directive dir takes the
// option name (the ID, its kind's options, a configured extra option, or
// a need type's options).
func (s *scanner) takesOption(dir, name []byte) bool {
	n := string(bytes.ToLower(unescape(name)))
	if n == "id" || s.cfg.ExtraOptions[n] {
		return true
	}
	d := string(s.lowerName(dir))
	if s.cfg.Needs != nil && s.cfg.Needs.Type(d) != nil {
		return s.cfg.Needs.Takes(n)
	}
	_, ok := OptionsOf(s.cfg.Directives[d])[n]
	return ok
}

// optionAt reads line li of block bl as an option field the node takes.
func (s *scanner) optionAt(bl block, li int, dir []byte) (misplaced, bool) {
	if s.blankAt(bl, li) {
		return misplaced{}, false
	}
	at := s.textAt(bl, li)
	t := s.src[at:s.lines[li].end]
	nameEnd, _, ok := fieldMarker(t)
	if !ok || !s.takesOption(dir, t[1:nameEnd]) {
		return misplaced{}, false
	}
	return misplaced{name: string(bytes.ToLower(unescape(t[1:nameEnd]))), start: at, end: at + nameEnd + 1}, true
}

// misplacedOptions finds the option lines around the directive block d of
// a node that docutils does not read as its options: in the title (too
// deep), in another option's value (too deep), right after the block (not
// indented under the directive) or at the start of the body (after the
// blank line that ends the options). limit is the end of the block d sits
// in.
func (s *scanner) misplacedOptions(d block, h *header, dir []byte, limit int) []misplaced {
	var out []misplaced
	for j := h.argLo; j < h.optLo; j++ {
		if j == d.lo && d.first >= 0 {
			continue // the directive's own line
		}
		if m, ok := s.optionAt(d, j, dir); ok {
			m.msg = "is part of the title, as it is indented deeper than the line"
			if len(h.fields) > 0 {
				m.msg += "s of the option block; indent it as the options below it"
			} else {
				m.msg += " below it; indent it as that line, and put the options after the title"
			}
			out = append(out, m)
		}
	}
	for _, f := range h.fields {
		for j := f.lo + 1; j < f.hi; j++ {
			if m, ok := s.optionAt(d, j, dir); ok {
				t := s.src[f.start:s.lines[f.lo].end]
				nameEnd, _, _ := fieldMarker(t)
				m.msg = fmt.Sprintf("continues the value of %q, as it is indented deeper; indent it as %q",
					string(t[:nameEnd+1]), string(t[:nameEnd+1]))
				out = append(out, m)
			}
		}
	}
	c := h.content
	if c.lo < c.hi {
		// A field list that opens the body, after the blank line.
		for j := c.lo; j < c.hi && s.rel(d, j) == 0; j++ {
			m, ok := s.optionAt(d, j, dir)
			if !ok {
				if _, _, field := fieldMarker(s.lineText(d, j)); !field {
					break
				}
				continue
			}
			m.msg = fmt.Sprintf("is in the body, after the blank line that ends the option block; remove the blank line (line %d)", s.lineNo(c.lo-1))
			out = append(out, m)
		}
		return out
	}
	// Right after a block of header lines only: not indented under the
	// directive.
	if e := d.hi; e < limit && e-1 >= d.lo && !s.blankAt(d, e-1) && s.lines[e].ind >= 0 {
		if m, ok := s.optionAt(block{lo: e, hi: e + 1, first: -1}, e, dir); ok {
			m.msg = "is not indented under the directive, so it is not one of its options; indent it as the directive's name"
			if len(h.fields) > 0 {
				m.msg = "is not indented under the directive, so it is not one of its options; indent it as the options above it"
			}
			out = append(out, m)
		}
	}
	return out
}

// nearMiss reports a directive docutils does not know whose name is one
// letter away from a seg directive name of five letters or more
// (".. outcom::") and whose option block shows a node was meant (meant):
// docutils makes no node of it, and a shorter name has too many real
// neighbours to guess; without the option block it may be another
// extension's directive. It reports whether it warned.
func (s *scanner) nearMiss(p, ns, ne int) bool {
	name := string(bytes.ToLower(s.src[ns:ne]))
	best := ""
	for d := range s.cfg.Directives {
		if len(d) >= 5 && diag.Distance(name, d, 1) == 1 && (best == "" || d < best) {
			best = d
		}
	}
	if best == "" || !s.meant(s.lineOf(p), p, best) {
		return false
	}
	end := ne
	for end < len(s.src) && s.src[end] == ':' {
		end++
	}
	s.diags = append(s.diags, lexDiag{code: CodeMisspelledDirective, start: p, end: end,
		msg:    fmt.Sprintf("%q is not a directive seg knows, so no node is made of it; did you mean \".. %s::\"?", string(s.src[p:end]), best),
		detail: "docutils and Sphinx run a directive of this name only if an extension defines it; seg reads nodes only from the directive names of its configuration."})
	return true
}

// garbled reports a line holding a seg directive's name followed by "::"
// whose next line (a definition list item's definition, or the next line
// of its paragraph) starts with an :id: field: a directive whose ".. "
// marker was damaged ("x. outcome::", "..xoutcome::"), which docutils
// reads as text. The forms looksLike knows are reported already.
func (s *scanner) garbled(bl block, term, def int) {
	start := s.textAt(bl, term)
	if _, ok := s.looksLike(start, int(s.lines[term].end)); ok {
		return
	}
	if !bytes.HasPrefix(s.lineText(bl, def), []byte(":id:")) {
		return
	}
	t := s.lineText(bl, term)
	i := bytes.Index(t, []byte("::"))
	j := i
	for j > 0 && (isAlnum(t[j-1]) || t[j-1] == '-' || t[j-1] == '_') {
		j--
	}
	if i <= 0 || j == i {
		return
	}
	// The damage may have run into the name ("..xoutcome::"): a word
	// that ends with a seg directive's name of four letters or more.
	word := string(s.lowerName(t[j:i]))
	name := ""
	for d := range s.cfg.Directives {
		if (d == word || len(d) >= 4 && strings.HasSuffix(word, d)) && len(d) > len(name) {
			name = d
		}
	}
	if name == "" {
		return
	}
	s.diags = append(s.diags, lexDiag{code: CodeMisspelledDirective, start: start, end: start + i + 2,
		msg: fmt.Sprintf("%q reads as %s directive whose \".. \" marker is damaged, so docutils reads it as text; write \".. %s::\"",
			string(t[:i+2]), diag.Article(name), name),
		detail: "A directive starts with \"..\", a space and its name; this line has something else before the name, so no node is made of it."})
}

// damagedName is the seg directive name (of four letters or more) that
// the text of t up to its first colon or blank is a few edits away from
// (diag.MaxTypos, the did-you-mean policy), and
// that text's length; "" when there is none, or the text is not followed
// by a colon. A byte changed into one a name cannot hold (a parenthesis,
// a quote) makes docutils read a comment where a directive was written.
func (s *scanner) damagedName(t []byte) (string, int) {
	w := 0
	for w < len(t) && t[w] != ':' && !isWS(t[w]) {
		w++
	}
	if w == len(t) || t[w] != ':' {
		return "", 0
	}
	word := strings.ToLower(string(t[:w]))
	name := ""
	for d := range s.cfg.Directives {
		if len(d) >= 4 && diag.Distance(word, d, diag.MaxTypos(len(d))) <= diag.MaxTypos(len(d)) && (name == "" || d < name) {
			name = d
		}
	}
	return name, w
}

// damagedInComment reports a comment that is a seg directive with a
// damaged name or colons (".. outcomex: Run", ".. outcome:x Run"): its
// text starts with a seg directive's name and an option block under it
// shows a node was meant (meant), and docutils reads a comment.
func (s *scanner) damagedInComment(bl block, i, lo, hi int) bool {
	start := s.textAt(bl, i)
	t := s.lineText(bl, i)
	n, ok := prefixWS(t, "..")
	if !ok {
		return false
	}
	t = t[n:]
	w := 0
	for w < len(t) && (isAlnum(t[w]) || t[w] == '-' || t[w] == '_') {
		w++
	}
	word := string(s.lowerName(t[:w]))
	name := ""
	for d := range s.cfg.Directives {
		if len(d) >= 4 && strings.HasPrefix(word, d) && len(d) > len(name) {
			name = d
		}
	}
	if name == "" {
		// The damage may be inside the name (".. outc(me:: Run"): the
		// text before the colons is one edit from a seg directive's name.
		name, w = s.damagedName(t)
	}
	if name == "" || w == len(t) || t[w] != ':' && word == name {
		return false
	}
	if !s.meant(i, start, name) {
		return false
	}
	end := start + n + w
	for end < int(s.lines[i].end) && s.src[end] == ':' {
		end++
	}
	s.diags = append(s.diags, lexDiag{code: CodeMisspelledDirective, start: start, end: end,
		msg: fmt.Sprintf("%q reads as %s directive with a damaged name or colons, so docutils reads a comment; write \".. %s::\"",
			string(s.src[start:end]), diag.Article(name), name),
		detail: "A directive is \"..\", a space, its name and two colons; this line is something else, so docutils reads a comment and no node is made of it."})
	return true
}

// meant reports whether the lines under line li show that a node of the
// seg directive name was meant: the lines indented deeper than the text at
// byte at, up to the first blank line, hold an option field that is the
// :id: or an option of the kind the name makes (a need type's options are
// those of any need, so for one only the :id: counts). A line that merely
// starts with a directive's name and one colon is how a comment reads
// (".. Test: the plan is in the wiki", ".. TODO: later"); an option block
// under it is what a node that lost a colon has and a comment has not.
func (s *scanner) meant(li, at int, name string) bool {
	col := s.vcol(li, at)
	last := s.nMain
	if li >= s.nMain {
		last = len(s.lines)
	}
	name = string(s.lowerName([]byte(name)))
	for j := li + 1; j < last; j++ {
		ln := s.lines[j]
		if ln.ind < 0 || int(ln.ind) <= col {
			return false
		}
		t := s.src[ln.cs:ln.end]
		nameEnd, _, ok := fieldMarker(t)
		if !ok {
			continue
		}
		opt := string(bytes.ToLower(unescape(t[1:nameEnd])))
		if opt == "id" {
			return true
		}
		if s.cfg.Needs != nil && s.cfg.Needs.Type(name) != nil {
			continue
		}
		if _, ok := OptionsOf(s.cfg.Directives[name])[opt]; ok {
			return true
		}
	}
	return false
}
