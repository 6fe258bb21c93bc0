package lsp

// This file is the server's only door into seg: the tree is read, built
// and evaluated by package check (a check.Live, which keeps every file's
// parse and reads again only what changed), and everything here hands
// out model.go's terms (files by path, byte offsets), so a change in how
// seg keeps positions or diagnostics is a change to this file alone.

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/codetags"
	"github.com/seg-trace/seg/config"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/internal/lazyre"
	"github.com/seg-trace/seg/internal/safefile"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/pins"
	"github.com/seg-trace/seg/revision"
	"github.com/seg-trace/seg/source"
)

// Options are what `seg lsp` takes from its command line, with the
// meaning they have for `seg check`.
type Options struct {
	// Open reads the configuration of the tree at root and says how to
	// check it, as seg check does with the same flags (--config,
	// --results, --witness, --needs-file, --allow-empty, the parse
	// cache). nil means check.Open(root, "") with no flags and no cache.
	// The server calls it at start-up and whenever a config file changes.
	Open func(root string) (*check.Tree, check.Options, error)
	// At is the evaluation date; the zero time means today (UTC), taken
	// again at every run.
	At time.Time
	// Now is the clock (tests set it); nil means time.Now.
	Now func() time.Time
}

// The codes only the language server reports: documented in
// docs/codes.md like every other, left out of seg check's SARIF rules.
var (
	CodeUnsatisfied = diag.NewEditor("unsatisfied", diag.Warning,
		"a requirement that is not satisfied (failing or unproven), shown on its directive line in an editor")
	CodeBadConfig = diag.NewEditor("bad-config", diag.Error,
		"the configuration cannot be read, so no file of the tree is")
)

// segEngine is the engine over package check.
type segEngine struct {
	root string
	opts Options
	live *check.Live
	open map[string][]byte // the buffers the live check reads
	prev *segSnapshot
	gens int
}

func newEngine(root string, opts Options) *segEngine {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Open == nil {
		opts.Open = func(root string) (*check.Tree, check.Options, error) {
			t, err := check.Open(root, "")
			return t, check.Options{}, err
		}
	}
	return &segEngine{root: root, opts: opts}
}

func (e *segEngine) evalDay() time.Time {
	if !e.opts.At.IsZero() {
		return evaluate.Day(e.opts.At)
	}
	return evaluate.Day(e.opts.Now())
}

func (e *segEngine) load(buffers func() map[string][]byte) (snapshot, error) {
	e.open = map[string][]byte{}
	e.live = nil
	t, o, err := e.opts.Open(e.root)
	if err != nil {
		s := e.empty()
		var ce *config.Error
		if errors.As(err, &ce) {
			s.fatal = e.configFinding(ce)
			s.paths = []string{s.fatal.file}
		}
		e.prev = s
		return s, err
	}
	e.live = t.Live(o)
	// The buffers are taken once the configuration is read, as late as
	// can be: an editor opens its documents right after initialized.
	var open map[string][]byte
	if buffers != nil {
		open = buffers()
	}
	for p, text := range open {
		e.open[p] = text
		e.live.SetText(p, text)
	}
	return e.run()
}

func (e *segEngine) update(changes map[string][]byte) (snapshot, error) {
	if e.live == nil {
		return e.prev, nil
	}
	for p, text := range changes {
		_, was := e.open[p]
		switch {
		case text != nil:
			e.open[p] = text
			e.live.SetText(p, text)
		case was:
			// The buffer is closed: the disk counts again.
			delete(e.open, p)
			e.live.SetText(p, nil)
		default:
			e.live.Changed(p)
		}
	}
	s, err := e.run()
	if err != nil {
		// A results file went missing, the root went away: the last
		// analysis stands, and the error goes to the editor, since the
		// findings it shows are no longer what seg check would say.
		return e.prev, err
	}
	return s, nil
}

// run checks the tree and makes a snapshot of the check.
func (e *segEngine) run() (snapshot, error) {
	c, err := e.live.Run(e.evalDay())
	if err != nil {
		if e.prev == nil {
			e.prev = e.empty()
		}
		return e.prev, err
	}
	open := make(map[string][]byte, len(e.open))
	for p, t := range e.open {
		open[p] = t
	}
	s := e.snapshot(c, open)
	e.prev = s
	return s, nil
}

// configFinding places a config error on its file and line.
func (e *segEngine) configFinding(ce *config.Error) *finding {
	file := e.rel(ce.File)
	f := &finding{file: file, severity: sevError, code: CodeBadConfig.Name, message: ce.Msg}
	f.line = max(ce.Line, 1)
	return f
}

func (e *segEngine) rel(p string) string {
	if r, err := filepath.Rel(e.root, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(p)
}

// empty is the snapshot of a tree that could not be read.
func (e *segEngine) empty() *segSnapshot {
	e.gens++
	return &segSnapshot{gen: e.gens, root: e.root, day: e.evalDay().Format(time.DateOnly), views: map[string]*fileView{}}
}

func (e *segEngine) snapshot(c *check.Check, open map[string][]byte) *segSnapshot {
	e.gens++
	s := &segSnapshot{
		gen: e.gens, root: e.root, c: c, open: open,
		day:    c.At.Format(time.DateOnly),
		byPath: make(map[string]*parser.File, len(c.Parsed)),
		srcs:   map[string]*source.File{},
		diags:  map[string][]diag.Diagnostic{},
		unsat:  map[string][]evaluate.Verdict{},
		views:  map[string]*fileView{},
	}
	for _, f := range c.Parsed {
		s.byPath[f.Path] = f
		if f.Source != nil {
			s.srcs[f.Path] = f.Source
		}
	}
	for _, f := range c.Files.Files() {
		if _, ok := s.srcs[f.Name()]; !ok {
			s.srcs[f.Name()] = f
		}
	}
	for _, d := range c.Diagnostics {
		name := s.nameOf(d.Span.Start)
		if name == "" {
			s.unplaced = append(s.unplaced, d)
			continue
		}
		s.diags[name] = append(s.diags[name], d)
	}
	// Verdicts are by requirement in ID order, as the graph's nodes are:
	// walking both is cheaper than looking every ID up.
	k := 0
	for n := range c.Graph.Nodes() {
		if !n.IsRequirement() {
			continue
		}
		v := c.Result.Verdicts[k]
		k++
		if v.Satisfied {
			continue
		}
		if name := s.nameOf(n.Pos()); name != "" {
			s.unsat[name] = append(s.unsat[name], v)
		} else {
			// A requirement read from outside the tree's files (a
			// needimport): seg check lists it, so the editor must too.
			s.unsatLoose = append(s.unsatLoose, v)
		}
	}
	set := map[string]bool{}
	for p, f := range s.byPath {
		if len(f.Nodes) > 0 || len(f.Diagnostics) > 0 {
			set[p] = true
		}
	}
	for p := range s.diags {
		set[p] = true
	}
	for p := range s.unsat {
		set[p] = true
	}
	s.paths = slices.Sorted(maps.Keys(set))
	return s
}

// segSnapshot is a snapshot over one *check.Check.
type segSnapshot struct {
	gen  int
	root string
	c    *check.Check // nil when the tree could not be read
	day  string
	// open holds the text of the buffers the check read.
	open   map[string][]byte
	byPath map[string]*parser.File
	// srcs are the files positions point into, by name.
	srcs map[string]*source.File
	// diags are the check's diagnostics by file; unplaced those with no
	// file (no-requirements); unsat the requirements that are not
	// satisfied, by the file of their directive.
	diags    map[string][]diag.Diagnostic
	unplaced []diag.Diagnostic
	// unsatLoose are the unsatisfied requirements with no place in any
	// file of the tree.
	unsatLoose []evaluate.Verdict
	unsat      map[string][]evaluate.Verdict
	fatal      *finding // why the tree could not be read (bad-config)
	paths      []string

	mu    sync.Mutex
	views map[string]*fileView
}

// fileView is what a snapshot worked out about one file, on demand.
type fileView struct {
	text []byte
	// bom is 3 when the text starts with a byte order mark: seg's offsets
	// count from after it.
	bom          int
	nodes        []node
	findings     []finding
	nodesOnce    sync.Once
	findingsOnce sync.Once
	lineOnce     sync.Once
	lines        []int32 // line starts by '\n', for positions given by line
}

func (s *segSnapshot) nameOf(p source.Pos) string {
	if s.c == nil {
		return ""
	}
	if f := s.c.Files.File(p); f != nil {
		return f.Name()
	}
	return ""
}

func (s *segSnapshot) files() []string { return s.paths }

func (s *segSnapshot) at() string { return s.day }

func (s *segSnapshot) view(file string) *fileView {
	s.mu.Lock()
	v := s.views[file]
	s.mu.Unlock()
	if v != nil {
		return v
	}
	v = &fileView{}
	switch t, ok := s.open[file]; {
	case ok:
		v.text = t
		if len(t) >= 3 && string(t[:3]) == "\uFEFF" {
			v.bom = 3
		}
	case s.srcs[file] != nil:
		// The tree's files are read without their byte order mark, as an
		// editor shows them.
		v.text = s.srcs[file].Text()
	default:
		v.text = s.readDisk(file)
	}
	s.mu.Lock()
	if w := s.views[file]; w != nil {
		v = w
	} else {
		s.views[file] = v
	}
	s.mu.Unlock()
	return v
}

func (s *segSnapshot) readDisk(file string) []byte {
	if file == "" {
		return nil
	}
	p := filepath.FromSlash(file)
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.root, p)
	}
	data, _ := safefile.Read(p)
	if len(data) >= 3 && string(data[:3]) == "\uFEFF" {
		data = data[3:]
	}
	return data
}

func (s *segSnapshot) text(file string) []byte { return s.view(file).text }

// offset is the place of p in its file's text.
func (s *segSnapshot) offset(v *fileView, p source.Pos) int {
	f := s.c.Files.File(p)
	if f == nil || !p.HasOffset() {
		return 0
	}
	pos := f.Position(p.Offset())
	if pos.Offset >= 0 {
		return min(v.bom+pos.Offset, len(v.text))
	}
	// A file read as a stream (a results file): a line and a column, the
	// line counted at line feeds as its reader counts them.
	return v.lineCol(pos.Line, pos.Column)
}

func (v *fileView) lineCol(line, col int) int {
	v.lineOnce.Do(func() { v.lines = source.LineStarts(v.text, source.Newlines) })
	if line < 1 {
		return 0
	}
	if line > len(v.lines) {
		return len(v.text)
	}
	return min(int(v.lines[line-1])+max(col, 1)-1, len(v.text))
}

// lineEnd is the offset of the end of the line (as seg cuts lines) that
// holds off, without its break and trailing blanks.
func (v *fileView) lineEnd(off int) int {
	i := off
	for i < len(v.text) && source.LineBreak(v.text, i, source.Docutils) == 0 {
		i++
	}
	for i > off && (v.text[i-1] == ' ' || v.text[i-1] == '\t') {
		i--
	}
	return i
}

// place converts a span of the check: its file and byte span. A span
// that only knows its start runs to the end of its line, so that an
// editor underlines the whole directive line; one that names a whole
// file is its first line.
func (s *segSnapshot) place(sp source.Span) (string, span) {
	file := s.nameOf(sp.Start)
	if file == "" {
		return "", span{}
	}
	v := s.view(file)
	a := s.offset(v, sp.Start)
	if sp.End.HasOffset() && sp.End.SameFile(sp.Start) {
		if b := s.offset(v, sp.End); b >= a {
			return file, span{a, b}
		}
	}
	return file, span{a, v.lineEnd(a)}
}

func (s *segSnapshot) nodes(file string) []node {
	v := s.view(file)
	v.nodesOnce.Do(func() { v.nodes = s.makeNodes(file, v) })
	return v.nodes
}

// findings are worked out without the file's nodes: at start-up every
// file's findings are, and few of its nodes ever are.
func (s *segSnapshot) findings(file string) []finding {
	v := s.view(file)
	v.findingsOnce.Do(func() { v.findings = s.makeFindings(file, v) })
	return v.findings
}

func (s *segSnapshot) makeNodes(file string, v *fileView) []node {
	f := s.byPath[file]
	if f == nil || s.c == nil {
		return nil
	}
	out := make([]node, 0, len(f.Nodes))
	for i := range f.Nodes {
		if f.Nodes[i].Pos.SameFile(f.Source.Whole()) {
			out = append(out, s.makeNode(f, &f.Nodes[i], v))
		}
	}
	return out
}

func (s *segSnapshot) makeNode(f *parser.File, n *parser.Node, v *fileView) node {
	start := s.offset(v, n.Pos)
	nd := node{
		id: n.ID, kind: n.Kind.String(), directive: n.Directive, title: n.Title,
		file: f.Path, span: span{start, v.lineEnd(start)}, parent: n.Parent,
	}
	// The directive name follows ".. " (and a substitution's "|name| "),
	// and may stand a space before its "::" (".. sreq :: T", which
	// docutils reads as the directive).
	line := v.text[start:nd.span.end]
	if i := strings.Index(string(line), "::"); i > 0 {
		e := i
		for e > 0 && line[e-1] == ' ' {
			e--
		}
		j := e
		for j > 0 && line[j-1] != ' ' && line[j-1] != '|' && line[j-1] != '.' {
			j--
		}
		nd.nameSpan = span{start + j, start + e}
	} else {
		nd.nameSpan = nd.span
	}
	nd.idSpan = nd.nameSpan
	if g, ok := s.c.Graph.Lookup(n.ID); ok && n.ID != "" && g.Pos() == n.Pos && !g.Shadow() {
		nd.defined = true
		nd.revision = revision.String(g.Revision())
	}
	for _, o := range n.Options {
		op := option{name: o.Name}
		// The field marker is ":name:"; its first colon is o.Pos.
		a := s.offset(v, o.Pos)
		op.nameSpan = span{a + 1, a + 1 + len(o.Name)}
		if a+1 <= len(v.text) {
			// The name as written may differ in case or escapes: end at
			// the marker's closing colon.
			if k := strings.IndexByte(string(v.text[a+1:min(len(v.text), a+1+4*len(o.Name)+8)]), ':'); k >= 0 {
				op.nameSpan.end = a + 1 + k
			}
		}
		vs := s.offset(v, o.ValuePos)
		op.valueSpan = span{vs, vs}
		if o.Value != "" {
			op.valueSpan.end = v.lineEnd(vs)
			for _, l := range o.Links {
				if l.Span.End.HasOffset() {
					op.valueSpan.end = max(op.valueSpan.end, s.offset(v, l.Span.End))
				}
			}
		}
		if o.Name == "id" {
			nd.hasIDOpt = true
			if n.ID != "" {
				nd.idSpan = span{vs, vs + len(n.ID)}
			} else {
				nd.idSpan = op.nameSpan
			}
		}
		op.targets = s.linkTargets(n.Directive, o.Name)
		if !parser.ListOptions[o.Name] {
			for _, l := range o.Links {
				ls := s.offset(v, l.Span.Start)
				op.links = append(op.links, linkRef{
					file: f.Path, from: n.ID, option: o.Name, id: l.ID,
					span: span{ls, ls + s.idWidth(l, v, ls)},
				})
			}
		}
		nd.options = append(nd.options, op)
	}
	return nd
}

// idWidth is the length of a link entry's ID in the text at off: the ID
// as written, without a state or a need part's condition.
func (s *segSnapshot) idWidth(l parser.Link, v *fileView, off int) int {
	w := len(l.ID)
	if l.Part != "" {
		w += 1 + len(l.Part)
	}
	if off+w <= len(v.text) && string(v.text[off:off+w]) == l.Address() {
		return w
	}
	if off+len(l.ID) <= len(v.text) && string(v.text[off:off+len(l.ID)]) == l.ID {
		return len(l.ID)
	}
	// An ID broken over lines: up to the end of the entry's span.
	if l.Span.End.HasOffset() {
		if end := s.offset(v, l.Span.End); end > off {
			return end - off
		}
	}
	return len(l.ID)
}

var (
	didYouMean = lazyre.New(`did you mean "([^"]*)"\?`)
	lockField  = lazyre.New(`\S+`)
)

func (s *segSnapshot) makeFindings(file string, v *fileView) []finding {
	var out []finding
	if s.fatal != nil && s.fatal.file == file {
		f := *s.fatal
		a := v.lineCol(f.line, 1)
		f.span = span{a, v.lineEnd(a)}
		out = append(out, f)
	}
	if s.c == nil {
		return out
	}
	for _, d := range s.diags[file] {
		out = append(out, s.finding(d))
	}
	for _, vd := range s.unsat[file] {
		out = append(out, s.unsatisfied(vd))
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].span.start != out[j].span.start {
			return out[i].span.start < out[j].span.start
		}
		return out[i].code < out[j].code
	})
	return out
}

// finding converts one of the check's diagnostics.
func (s *segSnapshot) finding(d diag.Diagnostic) finding {
	file, sp := s.place(d.Span)
	fd := finding{file: file, span: sp, code: d.Code.Name, message: d.Message, detail: d.Detail, severity: sevError}
	if d.Severity() == diag.Warning {
		fd.severity = sevWarning
	}
	for _, r := range d.Related {
		rf, rs := s.place(r.Span)
		if rf != "" {
			fd.related = append(fd.related, related{file: rf, span: rs, message: r.Message})
		}
	}
	if m := didYouMean.FindStringSubmatch(d.Message); m != nil && file != "" {
		v := s.view(file)
		switch d.Code.Name {
		case "unresolved-link":
			// Replace the ID only, not a state written after it.
			fd.suggest, fd.fix = m[1], sp
			if l, ok := s.linkAt(file, d.Span.Start); ok {
				fd.fix.end = sp.start + s.idWidth(l, v, sp.start)
			}
		case "unknown-option", "invalid-result":
			fd.suggest, fd.fix = strings.Trim(m[1], ":"), sp
		case "invalid-state":
			// The span holds the parentheses: the state is within.
			fd.suggest, fd.fix = m[1], sp
			if t := v.text; sp.end-sp.start >= 2 && t[sp.start] == '(' && t[sp.end-1] == ')' {
				fd.fix = span{sp.start + 1, sp.end - 1}
			}
		}
	}
	return fd
}

// unsatisfied is the finding of a requirement that is not satisfied, on
// its directive line: its status and first blocking reason, and every
// blocking reason as related information.
func (s *segSnapshot) unsatisfied(vd evaluate.Verdict) finding {
	n, _ := s.c.Graph.Lookup(vd.ID)
	file, sp := s.place(source.At(n.Pos()))
	fd := finding{file: file, span: sp, severity: sevWarning, code: CodeUnsatisfied.Name,
		message: fmt.Sprintf("requirement %q is %s", vd.ID, vd.Status)}
	first := true
	for _, r := range vd.Reasons {
		if !r.Blocking {
			continue
		}
		if first {
			fd.message += ": " + r.Message
			first = false
		}
		rf, rs := s.place(source.At(r.Pos))
		if rf != "" {
			fd.related = append(fd.related, related{file: rf, span: rs, message: r.Message + " [" + r.Code.Name + "]"})
		}
	}
	return fd
}

// linkAt finds the link entry of a file that starts at p.
func (s *segSnapshot) linkAt(file string, p source.Pos) (parser.Link, bool) {
	f := s.byPath[file]
	if f == nil {
		return parser.Link{}, false
	}
	for i := range f.Nodes {
		for _, o := range f.Nodes[i].Options {
			for _, l := range o.Links {
				if l.Span.Start == p {
					return l, true
				}
			}
		}
	}
	return parser.Link{}, false
}

func (s *segSnapshot) loose() []finding {
	var out []finding
	for _, d := range s.unplaced {
		out = append(out, s.finding(d))
	}
	for _, v := range s.unsatLoose {
		out = append(out, s.unsatisfied(v))
	}
	return out
}

func (s *segSnapshot) graphNode(id string) (*graph.Node, bool) {
	if s.c == nil {
		return nil, false
	}
	g, ok := s.c.Graph.Lookup(id)
	if !ok || g.Shadow() {
		return nil, false
	}
	return g, true
}

func (s *segSnapshot) lookup(id string) (node, bool) {
	g, ok := s.graphNode(id)
	if !ok {
		return node{}, false
	}
	file := s.nameOf(g.Pos())
	for _, n := range s.nodes(file) {
		if n.id == id && n.defined {
			return n, true
		}
	}
	// An outcome made from a test results file, an external need: no
	// directive of the tree.
	_, sp := s.place(source.At(g.Pos()))
	return node{id: id, kind: g.Kind().String(), directive: g.Directive(), title: g.Title(),
		file: file, span: sp, nameSpan: sp, idSpan: sp, parent: -1, defined: true,
		revision: revision.String(g.Revision())}, true
}

func (s *segSnapshot) verdict(id string) (verdict, bool) {
	g, ok := s.graphNode(id)
	if !ok {
		return verdict{}, false
	}
	v, ok := s.c.Result.Verdict(g)
	if !ok {
		return verdict{}, false
	}
	out := verdict{satisfied: v.Satisfied, leaf: v.Leaf, status: v.Status.String()}
	for _, r := range v.Reasons {
		rf, rs := s.place(source.At(r.Pos))
		out.reasons = append(out.reasons, reason{code: r.Code.Name, message: r.Message, file: rf, span: rs, blocking: r.Blocking})
	}
	t := v.Tally
	out.tests, out.impls, out.outcomes = int(t.Tests), int(t.Implementations), int(t.Outcomes)
	out.counted, out.skipped, out.excluded, out.notRead = int(t.Counted), int(t.Skipped), int(t.Excluded), int(t.NotRead)
	return out, true
}

func (s *segSnapshot) references(id string) []linkRef {
	var out []linkRef
	for _, p := range s.paths {
		f := s.byPath[p]
		if f == nil || !names(f, id) {
			continue
		}
		for _, n := range s.nodes(p) {
			for _, o := range n.options {
				for _, l := range o.links {
					if l.id == id {
						out = append(out, l)
					}
				}
			}
		}
	}
	// The code tags that name it (docs/codetags.md): their IDs as written
	// in the source files.
	if g, ok := s.graphNode(id); ok {
		var code []linkRef
		for _, x := range s.c.Result.Edges(s.c.Graph, g) {
			e := x.Edge
			from := s.c.Graph.From(e)
			if from == g || from.Directive() != codetags.Directive {
				continue
			}
			if file, sp := s.place(e.Span()); file != "" {
				code = append(code, linkRef{file: file, from: from.ID(), option: "implements", id: id, span: sp})
			}
		}
		if len(code) > 0 {
			out = append(out, code...)
			sort.SliceStable(out, func(i, j int) bool {
				if out[i].file != out[j].file {
					return out[i].file < out[j].file
				}
				return out[i].span.start < out[j].span.start
			})
		}
	}
	return out
}

// names reports whether a link entry of f names id.
func names(f *parser.File, id string) bool {
	for i := range f.Nodes {
		for _, o := range f.Nodes[i].Options {
			if parser.ListOptions[o.Name] {
				continue
			}
			for _, l := range o.Links {
				if l.ID == id {
					return true
				}
			}
		}
	}
	return false
}

func (s *segSnapshot) links(id string) []linkState {
	g, ok := s.graphNode(id)
	if !ok {
		return nil
	}
	gr := s.c.Graph
	var out []linkState
	for _, x := range s.c.Result.Edges(gr, g) {
		if x.Holds == evaluate.Current {
			continue
		}
		l := gr.Link(x.Edge)
		ls := linkState{from: l.From, option: l.Link, to: l.To, state: x.Holds.String(),
			now: revision.String(x.Now)}
		if x.Pinned {
			var revs []string
			for _, r := range x.Pin.Revisions {
				revs = append(revs, revision.String(r))
			}
			ls.pinned = strings.Join(revs, ", ")
		}
		ls.file, ls.span = s.place(x.Edge.Span())
		out = append(out, ls)
	}
	return out
}

func (s *segSnapshot) accept(file string, off int) (string, span, string, bool) {
	if s.c == nil || s.c.Lock == nil {
		return "", span{}, "", false
	}
	gr := s.c.Graph
	for _, n := range s.nodes(file) {
		g, ok := s.graphNode(n.id)
		if !ok || !n.defined {
			continue
		}
		for _, x := range s.c.Result.Edges(gr, g) {
			if gr.From(x.Edge) != g {
				continue // an edge that reaches it
			}
			ef, es := s.place(x.Edge.Span())
			// A link stale by its condition is accepted in the source
			// (seg review --accept), not by a pin.
			if ef != file || es.start != off || x.Holds != evaluate.Stale || !x.Condition.Holds() {
				continue
			}
			pin := x.Pin
			if !x.Pinned || len(pin.Revisions) != 1 {
				return "", span{}, "", false
			}
			lock, ps := s.place(source.At(pin.Pos))
			if lock != pins.FileName {
				return "", span{}, "", false
			}
			// The revision is the line's fourth field.
			v := s.view(lock)
			line := v.text[ps.start:ps.end]
			fields := lockField.FindAllIndex(line, -1)
			if len(fields) < 4 {
				return "", span{}, "", false
			}
			f := fields[3]
			return lock, span{ps.start + f[0], ps.start + f[1]}, revision.String(x.Now), true
		}
	}
	return "", span{}, "", false
}

func (s *segSnapshot) each(f func(id, kind, title string) bool) {
	if s.c == nil {
		return
	}
	for n := range s.c.Graph.Nodes() {
		if n.Shadow() {
			continue
		}
		if !f(n.ID(), n.Kind().String(), n.Title()) {
			return
		}
	}
}

func (s *segSnapshot) config() *parser.Config {
	if s.c == nil {
		return nil
	}
	return s.c.Config.Parser
}

func (s *segSnapshot) kindOf(directive string) (parser.Kind, bool) {
	cfg := s.config()
	if cfg == nil {
		return 0, false
	}
	k, ok := cfg.Directives[strings.ToLower(directive)]
	return k, ok && k != parser.Instruction
}

func (s *segSnapshot) optionNames(directive string) ([]string, bool) {
	k, ok := s.kindOf(directive)
	if !ok {
		return nil, false
	}
	cfg := s.config()
	names := []string{"id"}
	if cfg.Needs.Type(strings.ToLower(directive)) != nil {
		for o := range cfg.Needs.Options() {
			names = append(names, o)
		}
	} else {
		for o := range parser.OptionsOf(k) {
			names = append(names, o)
		}
	}
	for o := range cfg.ExtraOptions {
		names = append(names, o)
	}
	slices.Sort(names[1:])
	return slices.Compact(names), true
}

func (s *segSnapshot) linkTargets(directive, option string) []string {
	k, ok := s.kindOf(directive)
	if !ok {
		return nil
	}
	cfg := s.config()
	if cfg.Needs.Type(strings.ToLower(directive)) != nil {
		if cfg.Needs.Link(option) == nil {
			return nil
		}
		// A sphinx-needs link may name a need of any type.
		return []string{"requirement", "test", "implementation", "outcome", "waiver", "need"}
	}
	from, to, ok := graph.LinkOption(option)
	if !ok || from != k {
		return nil
	}
	var out []string
	for _, t := range to {
		out = append(out, t.String())
	}
	return out
}

func (s *segSnapshot) validID(id string) bool {
	if id == "" || !utf8.ValidString(id) || strings.ContainsAny(id, ",;| \t\r\n") {
		return false
	}
	cfg := s.config()
	if cfg == nil || cfg.IDPattern == nil {
		return true
	}
	return cfg.IDPattern.MatchString(id)
}

// changedSince lists the files whose findings may differ from prev's:
// the files read again, those whose diagnostics differ, and those of the
// requirements whose verdict reads differently. A run reads again only
// what changed, so the positions of a file not read again are the same
// values in both checks and compare as such.
func (s *segSnapshot) changedSince(prev snapshot) []string {
	p, ok := prev.(*segSnapshot)
	if !ok || p == nil || p.c == nil || s.c == nil || p.fatal != nil || s.fatal != nil {
		return s.paths
	}
	set := map[string]bool{}
	for path, f := range s.byPath {
		if q := p.byPath[path]; q == nil || q.Source != f.Source {
			set[path] = true
		}
	}
	for path := range p.byPath {
		if s.byPath[path] == nil {
			set[path] = true
		}
	}
	for path, ds := range s.diags {
		if !sameDiags(ds, p.diags[path]) {
			set[path] = true
		}
	}
	for path := range p.diags {
		if _, ok := s.diags[path]; !ok {
			set[path] = true
		}
	}
	for path, vs := range s.unsat {
		if !sameVerdicts(vs, p.unsat[path]) {
			set[path] = true
		}
	}
	for path := range p.unsat {
		if _, ok := s.unsat[path]; !ok {
			set[path] = true
		}
	}
	delete(set, "")
	return slices.Sorted(maps.Keys(set))
}

func sameDiags(a, b []diag.Diagnostic) bool {
	return slices.EqualFunc(a, b, func(x, y diag.Diagnostic) bool {
		return x.Code == y.Code && x.Message == y.Message && x.Span == y.Span && slices.Equal(x.Related, y.Related)
	})
}

func sameVerdicts(a, b []evaluate.Verdict) bool {
	return slices.EqualFunc(a, b, func(x, y evaluate.Verdict) bool {
		return x.ID == y.ID && x.Status == y.Status && sameBlocking(x.Reasons, y.Reasons)
	})
}

// sameBlocking reports whether the blocking reasons of a and b are the
// same (Verdict.Blocking, without making either list).
func sameBlocking(a, b []evaluate.Reason) bool {
	i, j := 0, 0
	for {
		for i < len(a) && !a[i].Blocking {
			i++
		}
		for j < len(b) && !b[j].Blocking {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if a[i] != b[j] {
			return false
		}
		i++
		j++
	}
}

func (s *segSnapshot) conditionFix(file string, off int) (span, string, string, bool) {
	if s.c == nil {
		return span{}, "", "", false
	}
	gr := s.c.Graph
	for _, n := range s.nodes(file) {
		g, ok := s.graphNode(n.id)
		if !ok || !n.defined {
			continue
		}
		for _, x := range s.c.Result.Edges(gr, g) {
			e := x.Edge
			if gr.From(e) != g || x.Condition.State != graph.ConditionFails {
				continue
			}
			ef, es := s.place(e.Span())
			if ef != file || off < es.start || off > es.end {
				continue
			}
			// The graph's offsets count from after a byte order mark.
			v := s.view(file)
			x, err := gr.RewriteCondition(e, v.text[v.bom:])
			if err != nil {
				return span{}, "", "", false
			}
			src := v.text[v.bom:]
			now := string(src[x.CondStart:x.Start]) + x.Text + string(src[x.End:x.CondEnd])
			return span{v.bom + x.Start, v.bom + x.End}, x.Text, now, true
		}
	}
	return span{}, "", "", false
}
