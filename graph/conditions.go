package graph

import (
	"fmt"
	"path"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
)

// The codes of link conditions (sphinx-needs 8's "ID[condition]"): a
// condition is a pin written in the entry itself (S-CORE writes every
// link as ID[version==1]), and a link whose condition does not hold is
// stale (docs/revisions.md, "Link conditions").
var (
	CodeLinkConditionFailed  = diag.NewWarning("link-condition-failed", "a link entry's condition does not hold for its target: the link is stale")
	CodeLinkConditionInvalid = diag.NewWarning("link-condition-invalid", "a link entry's condition seg cannot evaluate, which never counts as holding: the link is stale")
)

// ConditionState is what a link entry's condition says of its target.
type ConditionState uint8

const (
	// NoCondition: the entry has none.
	NoCondition ConditionState = iota
	// ConditionHolds: the condition is true of the target.
	ConditionHolds
	// ConditionFails: the condition is false of the target.
	ConditionFails
	// ConditionInvalid: the condition cannot be evaluated (bad syntax, an
	// unknown field, a value of the wrong type, Python seg does not
	// evaluate): it never counts as holding.
	ConditionInvalid
)

func (s ConditionState) String() string {
	switch s {
	case ConditionHolds:
		return "holds"
	case ConditionFails:
		return "fails"
	case ConditionInvalid:
		return "invalid"
	}
	return "none"
}

// FieldValue is a field of a link's target that its condition read, and
// its value when the graph was built.
type FieldValue struct {
	Name  string
	Value any
}

// Condition is a link entry's condition and what it says of the target.
type Condition struct {
	// Text is the condition as written (white space runs made one space).
	Text  string
	State ConditionState
	// Reads are the target's fields the condition read, each once, in
	// the order it read them.
	Reads []FieldValue
	// Err says why an invalid condition cannot be evaluated.
	Err string
}

// Holds reports whether the link is not stale by its condition: it has
// none, or it holds.
func (c Condition) Holds() bool { return c.State == NoCondition || c.State == ConditionHolds }

// Code is the code of a condition that does not hold, nil otherwise.
func (c Condition) Code() *diag.Code {
	switch c.State {
	case ConditionFails:
		return CodeLinkConditionFailed
	case ConditionInvalid:
		return CodeLinkConditionInvalid
	}
	return nil
}

// Values says what the target's fields the condition read are now:
// `version is "2"`, or why the condition cannot be evaluated.
func (c Condition) Values() string {
	if c.State == ConditionInvalid {
		return c.Err
	}
	if len(c.Reads) == 0 {
		return "it reads no field of the target"
	}
	parts := make([]string, len(c.Reads))
	for i, r := range c.Reads {
		parts[i] = fmt.Sprintf("%s is %s", r.Name, needs.Repr(r.Value))
	}
	return strings.Join(parts, ", ")
}

// Value is the value of field name that the condition read.
func (c Condition) Value(name string) (any, bool) {
	for _, r := range c.Reads {
		if r.Name == name {
			return r.Value, true
		}
	}
	return nil, false
}

// condResult is what an edge's extra keeps of its condition.
type condResult struct {
	state ConditionState
	reads []FieldValue
	err   string
}

// Condition is the condition of the entry e was written in, and what it
// says of e's target.
func (g *Graph) Condition(e *Edge) Condition {
	if e.x == nil || e.x.condition == "" {
		return Condition{}
	}
	c := Condition{Text: e.x.condition, State: ConditionInvalid}
	if r := e.x.cond; r != nil {
		c.State, c.Reads, c.Err = r.state, r.reads, r.err
	}
	return c
}

// ConditionHolds reports whether e is not stale by its entry's condition
// (it has none, or it holds): the one question evaluate asks of it.
func (g *Graph) ConditionHolds(e *Edge) bool {
	return e.x == nil || e.x.condition == "" || e.x.cond != nil && e.x.cond.state == ConditionHolds
}

// condition evaluates the condition of entry l of option o (of the need
// from) against its target to, and reports one that does not hold at
// the entry. It reads only the target's own fields (its parse and its
// graph node, both made before any edge), never edges, so it may run on
// every core and a patch redoes it by linking again the nodes whose
// conditional links name a node it changed.
func (b *builder) condition(from, to int32, o *parser.Option, l *parser.Link) *condResult {
	g := b.g
	if b.filters == nil {
		b.filters = map[string]condFilter{}
	}
	cf, ok := b.filters[l.Condition]
	if !ok {
		cf.f, cf.err = needs.ParseFilter(l.Condition)
		cf.thisDoc = strings.Contains(l.Condition, "this_doc")
		b.filters[l.Condition] = cf
	}
	r := &condResult{}
	target := g.nodes[to]
	if cf.err != nil {
		r.state, r.err = ConditionInvalid, filterWhy(cf.err)
	} else {
		tf := condFields{b: b, n: target, p: b.pn[to]}
		ctx := needs.FilterContext{TextNumbers: true}
		if cf.thisDoc {
			ctx.Doc, ctx.Docname = condFields{b: b, n: g.nodes[from]}.docname(), tf.docname()
		}
		holds, err := cf.f.Match(tf, ctx)
		if err == nil && holds {
			return condHolds // most conditions, S-CORE's every one: nothing to keep
		}
		// Once more, to say what the condition read.
		rec := &readFields{f: tf}
		cf.f.Match(rec, ctx)
		r.reads = rec.reads
		if err != nil {
			r.state, r.err = ConditionInvalid, filterWhy(err)
		} else {
			r.state = ConditionFails
		}
	}
	fromID := g.nodes[from].id
	c := Condition{Text: l.Condition, State: r.state, Reads: r.reads, Err: r.err}
	d := diag.Diagnostic{Code: c.Code(), Span: l.Span}
	if r.state == ConditionFails {
		d.Message = fmt.Sprintf("the condition [%s] of :%s: does not hold for %q: its %s", l.Condition, o.Name, target.id, c.Values())
		d.Detail = fmt.Sprintf("The link counts as stale, as a link whose pin names another revision of its target: the evidence across it is excluded (docs/revisions.md). "+
			"If %q still holds for %q as it is now, seg review --accept %s rewrites the condition to the target's current value.", fromID, target.id, fromID)
	} else {
		d.Message = fmt.Sprintf("the condition [%s] of :%s: cannot be evaluated on %q: %s", l.Condition, o.Name, target.id, r.err)
		d.Detail = "A condition seg cannot evaluate never counts as holding: the link counts as stale, and the evidence across it is excluded (docs/revisions.md)."
	}
	b.diag(d)
	return r
}

// condFilter is a condition parsed once per builder; thisDoc: it may
// call c.this_doc(), which reads where the link and its target are.
type condFilter struct {
	f       *needs.Filter
	err     *needs.FilterError
	thisDoc bool
}

// condHolds is the result of every condition that holds, shared: it
// keeps nothing else.
var condHolds = &condResult{state: ConditionHolds}

func filterWhy(e *needs.FilterError) string {
	if e.Unsupported {
		return e.Msg + " (Python that seg does not evaluate)"
	}
	return e.Msg
}

// readFields records the fields a condition reads, each once.
type readFields struct {
	f     condFields
	reads []FieldValue
}

func (r *readFields) Field(name string) (any, bool) {
	v, ok := r.f.Field(name)
	if !ok {
		return v, ok
	}
	if _, nc := v.(needs.NotComputed); !nc {
		seen := false
		for _, x := range r.reads {
			if x.Name == name {
				seen = true
				break
			}
		}
		if !seen {
			r.reads = append(r.reads, FieldValue{name, v})
		}
	}
	return v, ok
}

// condFields is a link's target as its condition reads it: sphinx-needs'
// names for the need's own fields (id, type, title, status, tags,
// docname, content, its link options, the extra options, ...). The back
// lists (NAME_back) and what sphinx-needs computes while it renders are
// not computed: a condition that reads them cannot be evaluated.
type condFields struct {
	b *builder
	n *Node
	p *parser.Node // nil for the source node (docname only)
}

func (f condFields) docname() string {
	root := ""
	if f.b.needs != nil {
		root = f.b.needs.DocRoot
	}
	return needs.Docname(root, f.b.files.Position(f.n.Pos()).Filename)
}

// Field is the target's field name as the project's one field model
// (needs.Project.Field) gives it, over the view below. The back lists are
// not computed for a condition: reading them would make a link's
// standing depend on every other node's links, so a condition that reads
// one cannot be evaluated.
func (f condFields) Field(name string) (any, bool) {
	np := f.b.needs
	if base, ok := strings.CutSuffix(name, "_back"); ok && np.Link(base) != nil {
		return needs.NotComputed{}, true
	}
	return np.Field(condView{f}, name)
}

// condView is the target as needs.NeedView: its graph node and its parse.
type condView struct{ f condFields }

func (v condView) Core() needs.NeedCore {
	n, p := v.f.n, v.f.p
	pos := v.f.b.files.Position(n.Pos())
	c := needs.NeedCore{ID: n.id, Type: n.Directive(), Title: n.Title(), Docname: v.f.docname(),
		Doctype: path.Ext(pos.Filename), Lineno: pos.Line, External: n.external, ParentNeed: n.parent}
	if p != nil {
		c.Content, c.HasContent = p.Body, true
		c.Imported, c.ImportKnown = p.Imported, true
	}
	return c
}

func (v condView) Option(name string) (string, bool) {
	if v.f.p == nil {
		return "", false
	}
	if o := v.f.p.Option(name); o != nil {
		return o.Value, true
	}
	return "", false
}

// Links are the targets the option's entries name, as written (dynamic
// functions left out, as sphinx-needs leaves those it has not computed).
func (v condView) Links(option string) []string {
	if v.f.p == nil {
		return nil
	}
	o := v.f.p.Option(option)
	if o == nil {
		return nil
	}
	var out []string
	for i := range o.Links {
		if !o.Links[i].IsDynamic() {
			out = append(out, o.Links[i].Address())
		}
	}
	return out
}

// BackLinks are never read (Field answers the back lists itself).
func (v condView) BackLinks(string) []string { return nil }
