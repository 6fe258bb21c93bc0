package parser

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/needs/model"
	"github.com/seg-trace/seg/revision"
	"github.com/seg-trace/seg/source"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

var bom = []byte{0xEF, 0xBB, 0xBF}

// MaxFileSize is the largest file seg parses (docs/limits.md): positions
// hold 32-bit offsets, and docutils takes minutes on a file of this size
// already. A larger file is the error file-too-large and adds no node.
const MaxFileSize = 1 << 30

// ParseFile finds the seg nodes of one RST file: src is the text of sf, a
// file of a FileSet whose name is the file's path relative to the root,
// with forward slashes. ParseFile sets sf's line table (after a leading
// BOM, which is not text: offsets count from after it). It never panics
// and never returns nil: whatever goes wrong becomes a diagnostic, and the
// nodes found so far are kept.
func ParseFile(sf *source.File, src []byte, cfg *Config) (f *File) {
	f = &File{Path: sf.Name(), Source: sf}
	if cfg == nil {
		cfg = DefaultConfig()
	}
	defer func() {
		if r := recover(); r != nil {
			f.Diagnostics = append(f.Diagnostics, diag.Diagnostic{
				Code:    CodeInternal,
				Message: fmt.Sprintf("internal error in seg's parser: %v", r),
				Detail:  "This is a bug in seg, not a problem in the file; please report it with the file.",
				Span:    source.At(sf.Whole()),
			})
		}
		sortFileDiags(f.Diagnostics)
	}()
	if len(src) > MaxFileSize {
		f.Diagnostics = append(f.Diagnostics, TooLarge(sf, int64(len(src))))
		return f
	}
	src = bytes.TrimPrefix(src, bom)
	if !utf8.Valid(src) {
		f.Diagnostics = append(f.Diagnostics, badEncoding(sf, src))
		return f
	}
	s := newScanner(sf, src, cfg)
	defer s.release()
	if li, n := s.tooLong(); li >= 0 {
		// docutils (and so Sphinx) parses nothing of such a file; reading
		// nodes docutils never sees would make seg disagree with it.
		ln := s.lines[li]
		f.Diagnostics = append(f.Diagnostics, diag.Diagnostic{
			Code:    CodeLineTooLong,
			Message: fmt.Sprintf("line has %d characters, over docutils' limit of %d", n, lineLimit),
			Detail:  "docutils and Sphinx do not parse a file with such a line, so seg reads no node from it.",
			Span:    sf.Span(int(ln.start), int(ln.end)),
		})
		return f
	}
	s.run()
	f.HasInclude = s.sawInclude
	b := &builder{s: s, cfg: cfg, f: f, sf: sf}
	b.scannerDiags()
	ast, err := parseTokens(s)
	if err != nil {
		f.Diagnostics = append(f.Diagnostics, grammarFailure(sf, err))
	}
	if ast != nil {
		b.build(ast)
	}
	b.rejected()
	f.Ignores = s.ignores
	return f
}

// scannerDiags adds the scanner's diagnostics to the file's.
func (b *builder) scannerDiags() {
	for _, d := range b.s.diags {
		x := b.diag(d.code, b.sf.Span(d.start, d.end), "%s", d.msg)
		x.Detail = d.detail
		if d.related != nil {
			x.Related = []diag.Related{{Span: b.sf.Span(d.related[0], d.related[1]), Message: "first given here"}}
			x.Detail = "docutils and Sphinx reject a directive with a repeated option, so seg reads no node from it."
		}
	}
}

// parseTokens runs the grammar over the scanned tokens; the tree may be
// partial when there is an error.
func parseTokens(s *scanner) (*astFile, error) {
	if len(s.toks) == 0 {
		return &astFile{}, nil // no seg directive: nothing to nest
	}
	p, err := theParser()
	if err != nil {
		return nil, err
	}
	pl, err := lexer.Upgrade(s)
	if err != nil {
		return nil, err
	}
	return p.ParseFromLexer(pl)
}

// grammarFailure is the diagnostic of an error of the grammar, at the
// place it names, else on the whole file. The grammar accepts whatever
// the scanner makes, so its error is a bug in seg, not in the file.
func grammarFailure(sf *source.File, err error) diag.Diagnostic {
	sp := source.At(sf.Whole())
	var pe participle.Error
	if errors.As(err, &pe) && pe.Position().Line > 0 {
		sp = source.At(sf.Pos(pe.Position().Offset))
	}
	return diag.Diagnostic{
		Code: CodeInternal, Span: sp,
		Message: "internal error in seg's parser: " + err.Error(),
		Detail:  "This is a bug in seg, not a problem in the file; please report it with the file.",
	}
}

// build makes the file's nodes from the grammar's tree, with room for
// one per directive token.
func (b *builder) build(ast *astFile) {
	n := 0
	for _, t := range b.s.toks {
		if t.typ == tDirective {
			n++
		}
	}
	b.f.Nodes = make([]Node, 0, n)
	b.opts = make([]Option, len(b.s.opts))
	b.nodes(ast.Nodes, -1)
}

// rejected reads the outcomes docutils rejects into File.Rejected, with
// the options that could be read: the graph counts them against every
// test their :confirms: names (semantics.md). Their errors are reported
// already.
func (b *builder) rejected() {
	src := b.s.src
	b.need = nil
	for _, ri := range b.s.rejected {
		nd := Node{Kind: Outcome, Directive: b.intern(b.s.lowerName(src[ri.name[0]:ri.name[1]])), Title: ri.title,
			Pos: b.pos(ri.pos), Parent: -1, Broken: true}
		var info optInfo
		for _, f := range b.s.rejectedOpts[ri.opt : ri.opt+ri.nopt] {
			o := b.option(f, Outcome, &info)
			if o.Name == "id" && nd.ID == "" {
				nd.ID = o.Value
			}
			nd.Options = append(nd.Options, o)
		}
		b.cfg.writeDocument(&b.doc, &nd)
		nd.Revision = b.doc.Revision()
		b.f.Rejected = append(b.f.Rejected, nd)
	}
}

// sortFileDiags orders the diagnostics of one file by offset, code and
// message (a file's positions compare without its FileSet).
func sortFileDiags(ds diag.List) {
	slices.SortStableFunc(ds, func(a, b diag.Diagnostic) int {
		if c := cmp.Compare(a.Span.Start.Offset(), b.Span.Start.Offset()); c != 0 {
			return c
		}
		if a.Code.Name != b.Code.Name {
			return strings.Compare(a.Code.Name, b.Code.Name)
		}
		return strings.Compare(a.Message, b.Message)
	})
}

// TooLarge is the file-too-large error of a file of size bytes; it adds
// no node.
func TooLarge(sf *source.File, size int64) diag.Diagnostic {
	return diag.Diagnostic{
		Code:    CodeFileTooLarge,
		Message: fmt.Sprintf("file has %d bytes, over seg's limit of %d", size, MaxFileSize),
		Detail:  "seg reads no node from a file this large (docs/limits.md); split it into smaller files.",
		Span:    source.At(sf.Whole()),
	}
}

// badEncoding points at the first byte that is not UTF-8.
func badEncoding(sf *source.File, src []byte) diag.Diagnostic {
	off := 0
	for off < len(src) {
		r, w := utf8.DecodeRune(src[off:])
		if r == utf8.RuneError && w <= 1 {
			break
		}
		off += w
	}
	// Lines are cut as everywhere else, so the line agrees with docutils'
	// count even in a file it refuses.
	sf.SetLines(source.LineStarts(src, source.Docutils))
	return diag.Diagnostic{
		Code:    CodeInvalidEncoding,
		Message: fmt.Sprintf("file is not valid UTF-8 (byte 0x%02x)", src[off]),
		Detail:  "seg reads UTF-8 only; no node of this file is read until it is re-encoded.",
		Span:    sf.Span(off, off+1),
	}
}

// builder turns the parse tree into seg's nodes and diagnoses them.
type builder struct {
	s      *scanner
	sf     *source.File
	cfg    *Config
	f      *File
	segs   [][2]int          // scratch
	doc    revision.Writer   // the canonical document of the node being built
	names  map[string]string // interned names
	k      int               // the next of the lexer's nodes
	infos  []optInfo         // scratch
	opts   []Option          // every option of the file, one allocation
	lchunk []Link            // see linkBuf
	need   *model.NeedType   // the node being built is a need of this type (needs.go)
	// mis are the node's misplaced option lines; an entry that explains
	// a missing option is used there and set to "".
	mis []misplaced
	// broken is set when an error is found in the node being built.
	broken bool
}

// validID checks an ID against the configured pattern; the default one is
// checked by hand, as a regular expression costs more than the rest of a
// node's checks.
func (b *builder) validID(id string) bool {
	re := b.idPattern()
	if re == nil {
		return true
	}
	if re.String() != DefaultIDPattern {
		return re.MatchString(id)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !isAlnum(c) && (i == 0 || c != '_' && c != '.' && c != '-') {
			return false
		}
	}
	return id != ""
}

// intern returns b as a string, allocating each distinct name once.
func (b *builder) intern(x []byte) string {
	if s, ok := b.names[string(x)]; ok {
		return s
	}
	s := string(x)
	if b.names == nil {
		b.names = map[string]string{}
	}
	b.names[s] = s
	return s
}

// pos converts an offset of the source (table cells included: their lines
// point into the physical lines) to a position.
func (b *builder) pos(off int) source.Pos { return b.sf.Pos(off) }

// span covers src[start:end]; end < 0 means only the start is known.
func (b *builder) span(start, end int) source.Span { return b.sf.Span(start, end) }

func (b *builder) diag(code *diag.Code, sp source.Span, format string, args ...any) *diag.Diagnostic {
	if code.Severity == diag.Error {
		b.broken = true
	}
	b.f.Diagnostics = append(b.f.Diagnostics, diag.New(code, sp, format, args...))
	return &b.f.Diagnostics[len(b.f.Diagnostics)-1]
}

func (b *builder) nodes(ns []*astNode, parent int) {
	for _, a := range ns {
		b.node(a, parent)
	}
}

// optInfo keeps, per option, where its name and value are, for
// diagnostics.
type optInfo struct {
	name             source.Span
	valStart, valEnd int
}

// node converts one parsed node, then its nested nodes, so that File.Nodes
// is in document order and a parent always comes before its children.
func (b *builder) node(a *astNode, parent int) {
	src := b.s.src
	off := a.Pos.Offset
	if b.k >= len(b.s.nodes) {
		panic("parse tree and lexer disagree on the number of nodes")
	}
	ni := b.s.nodes[b.k]
	b.k++
	fields := b.s.opts[ni.opt : ni.opt+ni.nopt]
	nameSpan := b.span(ni.name[0], ni.name[1])
	name := b.intern(b.s.lowerName(src[ni.name[0]:ni.name[1]]))
	kind := b.cfg.Directives[name]
	b.need = b.cfg.Needs.Type(name)

	nd := Node{
		Kind: kind, Directive: name, Title: ni.title, Body: ni.body,
		Pos: b.pos(off), Parent: parent,
		Options: b.opts[ni.opt : ni.opt : ni.opt+ni.nopt],
	}
	if cap(b.infos) < len(fields) {
		b.infos = make([]optInfo, len(fields))
	}
	infos := b.infos[:len(fields)]
	b.broken = false
	b.mis = ni.mis
	for i, f := range fields {
		nd.Options = append(nd.Options, b.option(f, kind, &infos[i]))
	}
	idx := len(b.f.Nodes)
	b.f.Nodes = append(b.f.Nodes, nd)
	if b.need != nil {
		b.needTitleAndID(&b.f.Nodes[idx], ni.content)
	}
	b.check(&b.f.Nodes[idx], nameSpan, infos)
	for _, m := range b.mis {
		if m.name != "" {
			b.diag(CodeMisplacedOption, b.span(m.start, m.end), "\":%s:\" reads as an option of %s but %s", m.name, name, m.msg).Detail =
				"docutils reads a directive's options only from the field list right after its first line, indented under it, before the first blank line; this line is not there, so the option is not the node's."
		}
	}
	b.f.Nodes[idx].Broken = b.broken
	b.cfg.writeDocument(&b.doc, &b.f.Nodes[idx])
	b.f.Nodes[idx].Revision = b.doc.Revision()
	b.nodes(a.Nodes, idx)
}

// option reads one field: its name, its value (continuation lines joined
// with single spaces) and, for a link option, its entries.
func (b *builder) option(f field, kind Kind, info *optInfo) Option {
	src := b.s.src
	off := f.start
	li := f.lo
	lines := b.s.lines
	nameEnd, vs, _ := fieldMarker(src[off:lines[li].end])
	name := b.intern(b.s.lowerName(unescape(src[off+1 : off+nameEnd])))
	info.name = b.span(off+1, off+nameEnd)

	// The value is the rest of the marker line and the continuation lines:
	// a run of source segments, which a table cell keeps apart.
	nl := f.hi - f.lo
	segs := b.segs[:0]
	segs = append(segs, [2]int{off + vs, int(lines[li].end)})
	for k := 1; k < nl; k++ {
		ln := lines[li+k]
		segs = append(segs, [2]int{int(ln.cs), int(ln.end)})
	}
	o := Option{Name: name, Pos: b.pos(off)}
	info.valStart, info.valEnd = -1, -1
	b.segs = segs
	var parts []string
	var inds []int // of parts, their lines' indentation (-1: the marker line)
	single := ""
	for k, sg := range segs {
		a, z := sg[0], sg[1]
		for a < z && isWS(src[a]) {
			a++
		}
		if a == z {
			continue
		}
		if info.valStart < 0 {
			info.valStart = a
		}
		info.valEnd = z
		if len(segs) == 1 {
			single = b.s.str[a:z]
		} else {
			parts = append(parts, string(src[a:z]))
			ind := -1
			if k > 0 {
				ind = int(lines[li+k].ind)
			}
			inds = append(inds, ind)
		}
	}
	if info.valStart >= 0 {
		o.ValuePos = b.pos(info.valStart)
	} else {
		o.ValuePos = b.pos(off + nameEnd + 1)
		info.valStart, info.valEnd = off+nameEnd+1, off+nameEnd+1
	}
	o.Value = single
	if len(parts) > 0 {
		if b.need != nil || kind == Instruction {
			o.Value = keepLines(parts, inds)
		} else {
			o.Value = strings.Join(parts, " ")
		}
	}
	if b.need != nil {
		if lt := b.cfg.Needs.Link(name); lt != nil {
			o.Links = b.needLinks(name, lt, segs)
		}
	} else if kind == Instruction {
		// needextend's ":links:", ":+links:" and ":-links:".
		if lt := b.cfg.Needs.Link(strings.TrimLeft(name, "+-")); lt != nil {
			o.Links = b.needLinks(name, lt, segs)
		}
	} else if isLink, known := OptionsOf(kind)[name]; isLink || known && ListOptions[name] {
		o.Links = b.links(name, segs)
	}
	return o
}

// keepLines joins a sphinx-needs option's lines as docutils hands the
// value over: with line breaks, each continuation line keeping the
// indentation it has beyond the least of them.
func keepLines(parts []string, inds []int) string {
	least := -1
	for _, ind := range inds {
		if ind >= 0 && (least < 0 || ind < least) {
			least = ind
		}
	}
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('\n')
		}
		if inds[i] > least {
			b.WriteString(strings.Repeat(" ", inds[i]-least))
		}
		b.WriteString(p)
	}
	return b.String()
}

func isSpace(c byte) bool { return isWS(c) || c == '\n' || c == '\r' }

// hasSpace reports whether v holds white space as isSpace sees it (bytes
// of a multi-byte character are never any).
func hasSpace(v []byte) bool {
	for _, c := range v {
		if isSpace(c) {
			return true
		}
	}
	return false
}

// collapse turns every run of white space (line ends included) into one
// space, for an entry that spans lines.
func collapse(v []byte) string {
	if !hasSpace(v) {
		return string(v)
	}
	return strings.Join(strings.Fields(string(v)), " ")
}

func isSep(c byte) bool { return c == ',' || c == ';' || c == '|' }

// links splits a link option's value into entries, with the exact span of
// each in the source. segs are the value's source segments, one per line.
func (b *builder) links(name string, segs [][2]int) []Link {
	val, off := b.flatten(segs)
	oneLine := len(segs) == 1
	out := b.linkBuf(1 + bytes.Count(val, []byte{','}) + bytes.Count(val, []byte{';'}) + bytes.Count(val, []byte{'|'}))
	// text is val[x:y] as a string: a substring of the source when it
	// is one, so that most IDs cost no allocation.
	text := func(x, y int) string {
		if oneLine && !hasSpace(val[x:y]) {
			return b.s.str[off.at(x) : off.at(x)+y-x]
		}
		return collapse(val[x:y])
	}
	for i := 0; i <= len(val); {
		j := i
		for j < len(val) && !isSep(val[j]) {
			j++
		}
		a, z := i, j
		for a < z && isSpace(val[a]) {
			a++
		}
		for z > a && isSpace(val[z-1]) {
			z--
		}
		i = j + 1
		if a == z {
			continue
		}
		l := Link{Span: b.span(off.at(a), off.at(z-1)+1)}
		idEnd := z
		// A :cases: entry is a test name pattern: "(...)" at its end is
		// part of the name (Go subtests, pytest parameters), not a state;
		// a :source: entry is a path.
		if val[z-1] == ')' && !ListOptions[name] {
			if q := bytes.LastIndexByte(val[a:z], '('); q > 0 {
				ie := a + q
				for ie > a && isSpace(val[ie-1]) {
					ie--
				}
				if ie > a {
					idEnd = ie
					sa, sz := a+q+1, z-1
					for sa < sz && isSpace(val[sa]) {
						sa++
					}
					for sz > sa && isSpace(val[sz-1]) {
						sz--
					}
					l.StateText = text(sa, sz)
					b.state(&l, name, off.at(a+q), off.at(z-1)+1)
				}
			}
		}
		l.ID = text(a, idEnd)
		out = append(out, l)
	}
	b.lchunk = b.lchunk[:len(b.lchunk)+len(out)]
	return out
}

// linkBuf returns an empty slice with room for n links, carved from a
// shared chunk: one allocation for many link options. The chunks grow
// from 16 links to 256, each twice the last, so that a file with few
// links does not hold room for many (a parse is kept for as long as the
// language server runs: chunks of 128 left 40% of the links' memory
// unused on a generated tree of 4,304 files).
func (b *builder) linkBuf(n int) []Link {
	if cap(b.lchunk)-len(b.lchunk) < n {
		b.lchunk = make([]Link, 0, max(n, min(2*cap(b.lchunk), 256), 16))
	}
	l := len(b.lchunk)
	return b.lchunk[l : l : l+n]
}

// state checks the "(state)" of an entry at src[ps:pe].
func (b *builder) state(l *Link, option string, ps, pe int) {
	sp := b.span(ps, pe)
	if !StatefulLinks[option] {
		b.diag(CodeStateNotAllowed, sp, "state %q not allowed on \":%s:\"", l.StateText, option).Detail =
			"Only :verifies: and :implements: entries carry a state; the state is ignored."
		return
	}
	switch strings.ToLower(l.StateText) {
	case "active":
		l.State = Active
	case "suspect":
		l.State = Suspect
	case "retired":
		l.State = Retired
	default:
		l.State = InvalidState
		d := b.diag(CodeInvalidState, sp, "invalid link state %q", l.StateText)
		d.Detail = "A state is one of active, suspect or retired; this entry counts as not active."
		if s := diag.Closest(l.StateText, []string{"active", "suspect", "retired"}); s != "" {
			d.Message += fmt.Sprintf(" (did you mean %q?)", s)
		}
	}
}

var results = []string{"passed", "failed", "skipped", "error"}

// check diagnoses a node: its ID, its options, and what its kind requires.
func (b *builder) check(nd *Node, nameSpan source.Span, infos []optInfo) {
	if nd.Kind == Instruction {
		return // any option, no ID: postprocess reads it
	}
	c := nodeCheck{b: b, nd: nd, nameSpan: nameSpan, infos: infos}
	c.optionNames()
	c.id()
	c.values()
}

// nodeCheck checks the options of one node: nameSpan is the span of its
// directive's name, infos where each option is written.
type nodeCheck struct {
	b        *builder
	nd       *Node
	nameSpan source.Span
	infos    []optInfo
}

// first is the index of the node's first option called name.
func (c nodeCheck) first(name string) (int, bool) {
	for i := range c.nd.Options {
		if c.nd.Options[i].Name == name {
			return i, true
		}
	}
	return 0, false
}

// valueSpan is option i's value, or its name when it has none.
func (c nodeCheck) valueSpan(i int) source.Span {
	if c.nd.Options[i].Value == "" {
		return c.infos[i].name
	}
	return c.b.span(c.infos[i].valStart, c.infos[i].valEnd)
}

// optionNames reports each option the node's kind (or sphinx-needs'
// project, for a need) does not take, unless seg.toml allows it.
func (c nodeCheck) optionNames() {
	b, nd := c.b, c.nd
	allowed := OptionsOf(nd.Kind)
	if b.need != nil {
		allowed = b.cfg.Needs.Options()
	}
	for i, o := range nd.Options {
		info := c.infos[i]
		if o.Name == "id" || b.cfg.ExtraOptions[o.Name] {
			continue
		}
		if _, ok := allowed[o.Name]; ok {
			continue
		}
		cands := []string{"id"}
		for k := range allowed {
			cands = append(cands, k)
		}
		for k := range b.cfg.ExtraOptions {
			cands = append(cands, k)
		}
		d := b.diag(CodeUnknownOption, info.name, "unknown option \":%s:\"", o.Name)
		if s := diag.Closest(o.Name, cands); s != "" {
			d.Message += fmt.Sprintf(" (did you mean \":%s:\"?)", s)
		}
		d.Detail = fmt.Sprintf("%s takes %s. To allow another option (kept as an attribute), list it under extra_options in seg.toml.",
			capitalize(diag.Article(nd.Kind.String())), optionList2(cands))
	}
}

// id sets the node's ID from its :id: and reports one that is missing,
// empty or does not match the ID pattern, or a generated need ID that
// does not match it.
func (c nodeCheck) id() {
	b, nd := c.b, c.nd
	if i, ok := c.first("id"); ok {
		nd.ID = nd.Options[i].Value
		info := c.infos[i]
		switch {
		case nd.ID == "" && b.idOptional():
		case nd.ID == "":
			b.diag(CodeMissingID, info.name, "empty \":id:\" on %s %q", nd.Directive, nd.Title)
		case !b.validID(nd.ID):
			b.diag(CodeInvalidID, b.span(info.valStart, info.valEnd), "invalid id %q (must match %s)",
				nd.ID, b.idPattern())
		}
	} else if !b.idOptional() {
		b.missing(CodeMissingID, c.nameSpan, nd.Directive, "id")
	} else if nd.ID != "" && !b.validID(nd.ID) {
		b.diag(CodeInvalidID, c.nameSpan, "generated id %q does not match %s", nd.ID, b.idPattern()).Detail =
			"sphinx-needs generates this ID (the type's prefix and a hash of the title) and refuses the need, as its ID does not match id_regex; give the need an :id:."
	}
}

// values reports what the node's kind requires of its options: those
// it needs, dates, an outcome's result and a test's maximum age.
func (c nodeCheck) values() {
	b, nd := c.b, c.nd
	switch nd.Kind {
	case Outcome:
		c.need("confirms")
		c.need("result")
		c.date("date", "An outcome whose date cannot be read counts as one that did not pass.")
		if i, ok := c.first("result"); ok && nd.Options[i].Value != "" {
			v := nd.Options[i].Value
			if !contains(results, v) {
				hint := ""
				if s := diag.Closest(v, results); s != "" {
					hint = fmt.Sprintf("; did you mean %q?", s)
				}
				b.diag(CodeInvalidResult, b.span(c.infos[i].valStart, c.infos[i].valEnd),
					"invalid result %q (want passed, failed, skipped or error%s)", v, hint).Detail =
					"Results are lower-case words. An outcome without a valid result counts against every requirement its test verifies, and no waiver excuses it."
			}
		}
	case Waiver:
		c.need("excuses")
		c.date("expires", "A waiver whose expiry date cannot be read excuses nothing.")
		c.date("date", "A waiver whose date cannot be read excuses nothing.")
	case Test:
		if i, ok := c.first("max-age"); ok {
			if v := nd.Options[i].Value; !ValidMaxAge(v) {
				b.diag(CodeInvalidMaxAge, c.valueSpan(i), "invalid :max-age: %q (want a whole number of days, at least 1)", v).Detail =
					"No outcome of this test counts until its maximum age can be read (docs/revisions.md)."
			}
		}
	}
}

// date reports option opt when it is not a date; detail says what that
// costs.
func (c nodeCheck) date(opt, detail string) {
	if i, ok := c.first(opt); ok {
		if v := c.nd.Options[i].Value; !validDate(v) {
			c.b.diag(CodeInvalidDate, c.valueSpan(i), "invalid date %q in \":%s:\" (want YYYY-MM-DD)", v, opt).Detail = detail
		}
	}
}

// need reports option opt when it is missing or blank.
func (c nodeCheck) need(opt string) {
	if o := c.nd.Option(opt); o == nil {
		c.b.missing(CodeMissingOption, c.nameSpan, c.nd.Kind.String(), opt)
	} else if strings.TrimSpace(o.Value) == "" {
		c.b.diag(CodeMissingOption, c.nameSpan, "%s has no \":%s:\"", c.nd.Kind, opt)
	}
}

// ValidMaxAge accepts a positive whole number of days, in plain digits
// (no sign, no leading zero, at most 9 of them). The graph reads a
// :max-age: only when it passes, so a value reported as invalid-max-age
// never lets an outcome count.
func ValidMaxAge(v string) bool {
	if v == "" || len(v) > 9 || v[0] == '0' {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

// missing reports that a node has no option opt: at the directive's name,
// or, when a line that reads as that option is misplaced, there, with why
// it is not the node's and the fix (one problem, one diagnostic).
func (b *builder) missing(code *diag.Code, nameSpan source.Span, what, opt string) {
	for i, m := range b.mis {
		if m.name != opt {
			continue
		}
		d := b.diag(code, b.span(m.start, m.end), "%s has no \":%s:\": this \":%s:\" %s", what, opt, opt, m.msg)
		d.Detail = "docutils reads a directive's options only from the field list right after its first line, indented under it, before the first blank line."
		d.Related = []diag.Related{{Span: nameSpan, Message: "the directive"}}
		b.mis[i].name = ""
		return
	}
	b.diag(code, nameSpan, "%s has no \":%s:\"", what, opt)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// optionList2 lists option names as ":a:, :b: and :c:", the first (:id:)
// first and the others sorted.
func optionList2(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = ":" + n + ":"
	}
	sort.Strings(out[1:])
	if len(out) < 2 {
		return strings.Join(out, "")
	}
	return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1]
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// validDate accepts exactly YYYY-MM-DD naming a real day.
func validDate(v string) bool {
	if len(v) != 10 || v[4] != '-' || v[7] != '-' {
		return false
	}
	_, err := time.Parse("2006-01-02", v)
	return err == nil
}
