package parser

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
)

// dirInfo is what the lexer must know of a non-seg directive to find where
// its RST content is: docutils splits a directive block differently
// depending on whether the directive takes arguments and options.
type dirInfo struct {
	args    int             // 0: none, 1: optional, 2: required
	spec    map[string]bool // allowed options; nil with anyOpt false: none
	anyOpt  bool            // any option is accepted (unknown directives)
	opaque  bool            // content is not RST, or not allowed
	noSplit bool            // no arguments and no options: content starts at once
	// check is a docutils rule on the content or the context; when it
	// fails, docutils rejects the directive and drops its content.
	check func(s *scanner, d block, h *header, titles bool) bool
}

var (
	classOpts  = map[string]bool{"class": true, "name": true}
	figureOpts = map[string]bool{"align": true, "alt": true, "class": true, "figclass": true, "figwidth": true,
		"height": true, "name": true, "scale": true, "target": true, "width": true}
	tableOpts = map[string]bool{"align": true, "class": true, "name": true, "width": true, "widths": true}
	listOpts  = map[string]bool{"align": true, "class": true, "header-rows": true, "name": true,
		"stub-columns": true, "width": true, "widths": true}
)

// unknownDirective is how a directive docutils does not know is read: as a
// container with an optional argument and any options, as Sphinx
// extensions (only, tab, needs, ...) are.
var unknownDirective = dirInfo{args: 1, anyOpt: true}

// knownDirectives are docutils' own directives (0.19, English names), so
// that seg agrees with docutils on where their content is.
var knownDirectives = map[string]dirInfo{
	"admonition": {args: 2, spec: classOpts},
	"topic":      {args: 2, spec: classOpts, check: needTitles},
	"class":      {args: 2, check: classArg},
	"figure":     {args: 2, spec: figureOpts, check: captionFirst},
	"container":  {args: 1, spec: map[string]bool{"name": true}, check: classArg},
	"sidebar":    {args: 1, spec: map[string]bool{"class": true, "name": true, "subtitle": true}, check: needTitles},
	"list-table": {args: 1, spec: listOpts, check: twoLevelList},
	"attention":  {spec: classOpts}, "caution": {spec: classOpts}, "danger": {spec: classOpts},
	"error": {spec: classOpts}, "hint": {spec: classOpts}, "important": {spec: classOpts},
	"note": {spec: classOpts}, "tip": {spec: classOpts}, "warning": {spec: classOpts},
	"compound": {spec: classOpts},
	"epigraph": {noSplit: true}, "footer": {noSplit: true}, "header": {noSplit: true},
	"highlights": {noSplit: true}, "pull-quote": {noSplit: true},

	"table": {args: 1, spec: tableOpts, check: oneTable},
	"code":  {opaque: true}, "code-block": {opaque: true}, "sourcecode": {opaque: true},
	"contents": {opaque: true}, "csv-table": {opaque: true}, "date": {opaque: true},
	"default-role": {opaque: true}, "image": {opaque: true}, "include": {opaque: true},
	"line-block": {opaque: true}, "math": {opaque: true}, "meta": {opaque: true},
	"parsed-literal": {opaque: true}, "raw": {opaque: true}, "replace": {opaque: true},
	"restructuredtext-test-directive": {opaque: true}, "role": {opaque: true},
	"rubric": {opaque: true}, "section-numbering": {opaque: true}, "sectnum": {opaque: true},
	"target-notes": {opaque: true}, "title": {opaque: true}, "unicode": {opaque: true},
}

// field is one option field of a directive header.
type field struct {
	start  int // the first colon
	lo, hi int // its lines, continuation lines included
}

// header is a directive block split as docutils' parse_directive_block
// does: argument lines, option fields (before the first blank line), and
// content (after it).
type header struct {
	argLo, optLo int // argument lines are argLo..optLo-1
	fields       []field
	content      block // lo == hi when there is none
	bad          *lexDiag
}

// split reads the header of directive block d. Options are looked for only
// when withOpts; an option block that is not a clean field list is bad,
// which makes docutils reject the whole directive.
func (s *scanner) split(d block, withOpts bool, fields []field) header {
	h := header{argLo: d.lo, fields: fields[:0]}
	if s.blankAt(d, d.lo) {
		h.argLo = d.lo + 1
	}
	k := h.argLo
	for k < d.hi && !s.blankAt(d, k) {
		k++
	}
	h.optLo = k
	if withOpts {
		for j := h.argLo; j < k; j++ {
			if s.rel(d, j) != 0 {
				continue
			}
			if _, _, ok := fieldMarker(s.lineText(d, j)); ok {
				h.optLo = j
				break
			}
		}
		for j := h.optLo; j < k; {
			t := s.lineText(d, j)
			nameEnd, _, ok := fieldMarker(t)
			start := s.textAt(d, j)
			if !ok || s.rel(d, j) != 0 {
				msg := fmt.Sprintf("invalid option block: line %d is not an option field; add a blank line before it if it starts the body, or indent it deeper if it continues the option above", s.lineNo(j))
				if len(t) > 0 && t[0] == ':' {
					msg = fmt.Sprintf("invalid option block: line %d is not an option field (\":name: value\")", s.lineNo(j))
				}
				h.bad = &lexDiag{code: CodeMalformedDirective, msg: msg, start: start, end: int(s.lines[j].end),
					detail: "docutils and Sphinx reject a directive whose option block (the field list after its first line, up to the first blank line) holds a line that is not an option field, with everything in it, so seg reads no node from it."}
				break
			}
			if bytes.ContainsAny(unescape(t[1:nameEnd]), " \t\v\f") {
				h.bad = &lexDiag{code: CodeMalformedDirective, msg: "option name may not contain spaces",
					start: start + 1, end: start + nameEnd}
				break
			}
			e := j + 1
			for e < k && s.rel(d, e) > 0 {
				e++
			}
			h.fields = append(h.fields, field{start: start, lo: j, hi: e})
			j = e
		}
	}
	c := k + 1
	for c < d.hi && s.blankAt(d, c) {
		c++
	}
	hi := d.hi
	for hi > c && s.blankAt(d, hi-1) {
		hi--
	}
	if c > hi {
		c = hi
	}
	h.content = block{lo: c, hi: hi, b: d.b, first: -1}
	return h
}

// unescape drops RST backslash escapes from a field name.
func unescape(b []byte) []byte {
	if bytes.IndexByte(b, '\\') < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+1 < len(b) {
			i++
		}
		out = append(out, b[i])
	}
	return out
}

// lowerName lower-cases a directive name, without allocating for the
// usual lower-case ASCII name.
func (s *scanner) lowerName(b []byte) []byte {
	for _, c := range b {
		if c >= 'A' && c <= 'Z' || c >= 0x80 {
			if len(b) <= len(s.lowerBuf) && bytes.IndexFunc(b, func(r rune) bool { return r >= 0x80 }) < 0 {
				out := s.lowerBuf[:len(b)]
				for i, c := range b {
					if c >= 'A' && c <= 'Z' {
						c += 'a' - 'A'
					}
					out[i] = c
				}
				return out
			}
			return bytes.ToLower(b)
		}
	}
	return b
}

// directive handles ".. name:: ..." at line i: p is the "..", the name is
// src[ns:ne] and the argument starts at after. subst is set for the
// directive of a substitution definition.
func (s *scanner) directive(bl block, i, p, ns, ne, after int, titles, subst bool) int {
	d := s.firstKnown(bl, i, after, false)
	name := s.lowerName(s.src[ns:ne])
	if k, ok := s.cfg.Directives[string(name)]; ok {
		s.node(d, p, ns, ne, bl.hi, k, s.cfg.Needs.Type(string(name)) != nil)
		return d.hi
	}
	info, known := knownDirectives[string(name)]
	near := false // a lookalike of a seg name: hidden-directive says it all
	if !known {
		info = unknownDirective
		if !s.cfg.Literal[string(name)] {
			near = s.nearMiss(p, ns, ne)
		}
	}
	if subst && string(name) == "replace" {
		// Only inside a substitution definition does replace run, and
		// then it parses its content (its first line included) as RST.
		info = dirInfo{noSplit: true}
	}
	if string(name) == "include" {
		s.sawInclude = true
		if s.incl != nil {
			s.include(d)
		}
	}
	if s.cfg.Literal[string(name)] || info.opaque {
		return d.hi
	}
	if info.noSplit {
		c := d
		if s.blankAt(d, d.lo) {
			c = block{lo: d.lo + 1, hi: d.hi, b: d.b, first: -1}
		}
		s.body(c, false)
		return d.hi
	}
	h := s.split(d, info.anyOpt || info.spec != nil, nil)
	if h.bad != nil {
		return d.hi
	}
	if !known && !near {
		s.unknownWithID(ns, ne, h.fields)
	}
	if !info.anyOpt {
		for _, f := range h.fields {
			t := s.src[f.start:s.lines[f.lo].end]
			nameEnd, _, _ := fieldMarker(t)
			if !info.spec[string(bytes.ToLower(unescape(t[1:nameEnd])))] {
				return d.hi // docutils rejects the directive: unknown option
			}
		}
	}
	if info.args == 0 {
		// Without arguments, the lines before the options are content too.
		first := -1
		if h.argLo == d.lo {
			first = d.first
		}
		if len(h.fields) == 0 {
			s.body(block{lo: h.argLo, hi: d.hi, b: d.b, first: first}, false)
			return d.hi
		}
		if h.argLo < h.optLo {
			s.body(block{lo: h.argLo, hi: h.optLo, b: d.b, first: first}, false)
		}
	} else if info.args == 2 && h.argLo == h.optLo {
		return d.hi // a required argument is missing: docutils rejects it
	}
	if info.check != nil && !info.check(s, d, &h, titles) {
		return d.hi
	}
	s.body(h.content, false)
	return d.hi
}

// node emits the tokens of a seg directive: Directive, then, when its
// content holds seg nodes, Body, their tokens and End.
// What the tokens stand for (title, option fields, content) is kept in
// s.nodes and s.opts for the builder: one token for the directive with
// all its options, and no captured values, spare participle most of its
// per-token and per-capture cost, which dominates parsing time.
//
// limit is the end of the block the node sits in. A need (need) keeps
// the line breaks of its argument, as sphinx-needs does; an Instruction
// emits no Body: its content is not RST.
func (s *scanner) node(d block, p, ns, ne, limit int, kind Kind, need bool) {
	h := s.split(d, true, s.fieldBuf)
	s.fieldBuf = h.fields[:0]
	if h.bad == nil {
		h.bad = s.duplicate(h.fields)
	}
	if h.bad != nil {
		s.diags = append(s.diags, *h.bad)
		if kind == Outcome {
			// docutils rejects the directive, but an outcome must not
			// vanish with it: it may be the one that failed (semantics.md,
			// "bad input never makes evidence against a requirement
			// disappear"). Keep what can be read of it.
			fields := s.lenient(d, h)
			s.rejected = append(s.rejected, rejectedInfo{head: d.lo, pos: p, name: [2]int{ns, ne}, title: s.title(d, h), opt: len(s.rejectedOpts), nopt: len(fields)})
			s.rejectedOpts = append(s.rejectedOpts, fields...)
		}
		return
	}
	withContent := kind == Instruction && string(s.lowerName(s.src[ns:ne])) == "list2need"
	if kind == Instruction && h.content.lo < h.content.hi && !withContent {
		s.diags = append(s.diags, lexDiag{code: CodeMalformedDirective,
			msg:   "a needextend or needimport takes no content; docutils rejects the directive",
			start: int(s.lines[h.content.lo].cs), end: int(s.lines[h.content.lo].end)})
		return
	}
	k := len(s.nodes)
	ni := nodeInfo{head: d.lo, end: d.hi, name: [2]int{ns, ne}, opt: len(s.opts), nopt: len(h.fields),
		mis: s.misplacedOptions(d, &h, s.src[ns:ne], limit)}
	if need || kind == Instruction {
		ni.title = s.argument(d, h)
		if need && (ni.title == "" || !s.hasField(h.fields, "id")) {
			ni.content = s.content(h.content)
		}
	} else {
		ni.title = s.title(d, h)
	}
	s.nodes = append(s.nodes, ni)
	if p := s.open; p >= 0 {
		if s.nodes[p].child == 0 {
			s.nodes[p].child = k
		} else {
			s.nodes[s.nodes[p].last].next = k
		}
		s.nodes[p].last = k
	}
	s.opts = append(s.opts, h.fields...)
	s.toks = append(s.toks, token{tDirective, int32(p)})
	if c := h.content; withContent && c.lo < c.hi {
		// list2need's content is a list package postprocess turns
		// into needs: kept as it is, not read as RST.
		s.nodes[k].body = s.dedent(c, 0)
	}
	if c := h.content; c.lo < c.hi && kind != Instruction {
		// Body and End bracket the content only when it holds seg nodes:
		// the grammar has nothing to nest in the others, and two tokens
		// less on most nodes spare participle a third of its work.
		s.toks = append(s.toks, token{tBody, s.lines[c.lo].cs})
		body := len(s.toks)
		outer := s.open
		s.open = k
		s.body(c, false)
		s.open = outer
		s.nodes[k].body = s.dedent(c, s.nodes[k].child)
		if len(s.toks) == body {
			s.toks = s.toks[:body-1]
		} else {
			s.toks = append(s.toks, token{tEnd, s.lines[c.hi-1].end})
		}
	}
}

// title joins the argument lines of a directive, each trimmed, with single
// spaces.
func (s *scanner) title(d block, h header) string {
	if h.argLo == h.optLo {
		return ""
	}
	if h.optLo == h.argLo+1 {
		return s.str[s.textAt(d, h.argLo):s.lines[h.argLo].end]
	}
	var b []byte
	for j := h.argLo; j < h.optLo; j++ {
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = append(b, s.lineText(d, j)...)
	}
	return string(b)
}

// argument is a directive's argument as docutils hands it to a directive
// whose argument may hold white space (a need's title, needextend's
// filter): its lines joined with line breaks, each continuation line
// keeping the indentation it has beyond the block's.
func (s *scanner) argument(d block, h header) string {
	if h.optLo == h.argLo+1 {
		return s.title(d, h)
	}
	var b []byte
	for j := h.argLo; j < h.optLo; j++ {
		if j > h.argLo {
			b = append(b, '\n')
			for r := s.rel(d, j); r > 0; r-- {
				b = append(b, ' ')
			}
		}
		b = append(b, s.lineText(d, j)...)
	}
	return string(b)
}

// content is a directive's content as docutils hands it over (the lines
// of c without the block's indentation, tabs expanded, joined with line
// breaks), nested directives included: sphinx-needs hashes it into the ID
// of a need that has neither an ID nor a title.
func (s *scanner) content(c block) string {
	var b strings.Builder
	for j := c.lo; j < c.hi; j++ {
		if j > c.lo {
			b.WriteByte('\n')
		}
		ln := s.lines[j]
		if ln.ind < 0 {
			continue
		}
		for r := int(ln.ind) - c.b; r > 0; r-- {
			b.WriteByte(' ')
		}
		col := int(ln.ind)
		for _, r := range string(s.src[ln.cs:ln.end]) {
			if r == '\t' {
				n := 8 - col%8
				b.WriteString(strings.Repeat(" ", n))
				col += n
				continue
			}
			b.WriteRune(r)
			col++
		}
	}
	return b.String()
}

// hasField reports whether a directive's option fields include name.
func (s *scanner) hasField(fields []field, name string) bool {
	for _, f := range fields {
		t := s.src[f.start:s.lines[f.lo].end]
		nameEnd, _, _ := fieldMarker(t)
		if bytes.EqualFold(unescape(t[1:nameEnd]), []byte(name)) {
			return true
		}
	}
	return false
}

// unknownWithID reports a directive seg does not know that has an :id:
// option: it looks like a need of a type seg cannot map (the project
// defines its types where seg cannot read them, or the name is a typo),
// and seg reads no node from it. check gathers these into one warning per
// name.
func (s *scanner) unknownWithID(ns, ne int, fields []field) {
	if s.hasField(fields, "id") {
		s.diags = append(s.diags, lexDiag{code: CodeUnknownNeedType,
			msg:   fmt.Sprintf("unknown need type %q: a directive with an :id: that is no need type or seg directive", s.lowerName(s.src[ns:ne])),
			start: ns, end: ne})
	}
}

// dedent renders a node's content without the block's indentation, with
// LF line ends and tabs in the indentation expanded. The blocks of the
// nodes nested in it (child and its siblings) are left out: each has its
// own body, and copying them into every enclosing body would make a
// deeply nested file cost memory cubic in its depth.
func (s *scanner) dedent(c block, first int) string {
	child := first
	skip := func(j int) int { // the line after the nested block at j, or j
		for child != 0 && s.nodes[child].head < j {
			child = s.nodes[child].next
		}
		if child != 0 && s.nodes[child].head == j {
			e := s.nodes[child].end
			child = s.nodes[child].next
			return e
		}
		return j
	}
	n := 0
	for j := c.lo; j < c.hi; j++ {
		if e := skip(j); e > j {
			j = e - 1
			continue
		}
		n++
		if ln := s.lines[j]; ln.ind >= 0 {
			n += int(ln.end-ln.cs) + max(0, int(ln.ind)-c.b)
		}
	}
	// The body is written straight into the string it becomes (one
	// allocation, not a buffer and its copy); line breaks wait until text
	// follows them, as blank lines before a nested block that ends the
	// content are not the body's.
	var out strings.Builder
	out.Grow(n)
	child = first
	started := false
	breaks := 0
	for j := c.lo; j < c.hi; j++ {
		if e := skip(j); e > j {
			j = e - 1
			continue
		}
		if started {
			breaks++
		}
		started = true
		ln := s.lines[j]
		if ln.ind < 0 {
			continue
		}
		for ; breaks > 0; breaks-- {
			out.WriteByte('\n')
		}
		for k := int(ln.ind) - c.b; k > 0; k-- {
			out.WriteByte(' ')
		}
		out.Write(s.src[ln.cs:ln.end])
	}
	return out.String()
}

// needTitles: topics and sidebars may only appear where section titles may.
func needTitles(_ *scanner, _ block, _ *header, titles bool) bool { return titles }

// classArg: the argument of container and class must be class names, each
// holding a letter docutils can keep in an identifier.
func classArg(s *scanner, d block, h *header, _ bool) bool {
	for j := h.argLo; j < h.optLo; j++ {
		for _, w := range bytes.Fields(s.lineText(d, j)) {
			if bytes.IndexFunc(w, func(r rune) bool {
				return r < 0x80 && isAlpha(byte(r)) || r >= 0xC0 && r <= 0x24F && unicode.IsLetter(r)
			}) < 0 {
				return false
			}
		}
	}
	return true
}

// captionFirst: a figure's content must start with its caption (a
// paragraph) or an empty comment.
func captionFirst(s *scanner, _ block, h *header, _ bool) bool {
	c := h.content
	if c.lo >= c.hi {
		return true
	}
	t := s.lineText(c, c.lo)
	if n, ok := prefixWS(t, ".."); ok {
		return n == len(t) // only an empty comment
	}
	if _, ok := bulletLen(t); ok {
		return false
	}
	_, _, ok := fieldMarker(t)
	return !ok && s.rel(c, c.lo) == 0
}

// twoLevelList: a list-table's content must be one bullet list whose
// items are bullet lists of the same length.
func twoLevelList(s *scanner, _ block, h *header, _ bool) bool {
	rows := bulletItems(s, h.content)
	cols := -1
	if len(rows) == 0 {
		return false
	}
	for _, r := range rows {
		n := bulletItems(s, r)
		if len(n) == 0 {
			return false
		}
		if cols < 0 {
			cols = len(n)
		}
		if len(n) != cols {
			return false
		}
	}
	return true
}

// bulletItems splits a block made of one bullet list into its items; nil
// when the block holds anything else.
func bulletItems(s *scanner, c block) []block {
	var items []block
	var char byte
	for i := c.lo; i < c.hi; {
		r := s.rel(c, i)
		if r < 0 {
			i++
			continue
		}
		t := s.lineText(c, i)
		n, ok := bulletLen(t)
		if r != 0 || !ok || char != 0 && t[0] != char {
			return nil
		}
		char = t[0]
		p := s.textAt(c, i) + n
		var it block
		if p < int(s.lines[i].end) {
			it = s.known(c, i, p, s.acol(c, i, p))
		} else {
			it = s.firstKnown(c, i, p, false)
		}
		items = append(items, it)
		i = it.hi
	}
	return items
}

// lenient reads the option fields of a directive block docutils rejects:
// the well-formed fields split found, then every later line of the option
// block that starts a field at the options' indentation, skipping what is
// not a field.
func (s *scanner) lenient(d block, h header) []field {
	fields := append([]field(nil), h.fields...)
	k := h.argLo
	for k < d.hi && !s.blankAt(d, k) {
		k++
	}
	j := h.optLo
	if len(fields) > 0 {
		j = fields[len(fields)-1].hi
	}
	for ; j < k; j++ {
		t := s.lineText(d, j)
		nameEnd, _, ok := fieldMarker(t)
		if !ok || s.rel(d, j) != 0 || bytes.ContainsAny(unescape(t[1:nameEnd]), " \t\v\f") {
			continue
		}
		e := j + 1
		for e < k && s.rel(d, e) > 0 {
			e++
		}
		fields = append(fields, field{start: s.textAt(d, j), lo: j, hi: e})
		j = e - 1
	}
	return fields
}

// duplicate finds an option given twice. docutils (and Sphinx) reject such
// a directive with everything in it, so seg reports it and makes no node,
// to find exactly the nodes docutils finds.
func (s *scanner) duplicate(fields []field) *lexDiag {
	if len(fields) < 2 {
		return nil
	}
	name := func(f field) []byte {
		t := s.src[f.start:s.lines[f.lo].end]
		nameEnd, _, _ := fieldMarker(t)
		return unescape(t[1:nameEnd])
	}
	for i := 1; i < len(fields); i++ {
		ni := name(fields[i])
		for j := 0; j < i; j++ {
			nj := name(fields[j])
			if !bytes.EqualFold(ni, nj) {
				continue
			}
			f, g := fields[i], fields[j]
			return &lexDiag{code: CodeDuplicateOption,
				msg:   fmt.Sprintf("duplicate option \":%s:\"; the directive is ignored", bytes.ToLower(ni)),
				start: f.start + 1, end: f.start + 1 + len(ni),
				related: &[2]int{g.start + 1, g.start + 1 + len(nj)}}
		}
	}
	return nil
}

// oneTable: a table directive's content must be a table.
func oneTable(s *scanner, _ block, h *header, _ bool) bool {
	c := h.content
	if c.lo >= c.hi || s.rel(c, c.lo) != 0 {
		return false
	}
	t := s.lineText(c, c.lo)
	return gridTop(t) || simpleTop(t)
}
