// Package rules is seg's rule engine: rules are values (a code, a doc and
// a run function, as go/analysis' Analyzers are), and the engine runs a set
// of them over a tree once its graph is built, reading and never changing
// it, and returns their diagnostics. Readers make the rules: package
// rules/metamodel reads S-CORE's metamodel.yaml, and Score turns it into
// rules (score.go); a reader of sphinx-needs' own schemas (schemas.json,
// needs_schema_definitions) would be another. The rules decide nothing
// about evidence: evaluate stays the only judge of it.
package rules

import (
	"fmt"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/rules/metamodel"
	"github.com/seg-trace/seg/source"
)

// Rule is one rule: the code its diagnostics carry, what it checks, and
// the function that checks it: Need on each need of the tree (the engine
// runs those on several needs at once), or Run on the whole tree.
type Rule struct {
	Code *diag.Code
	Doc  string
	Need func(*Pass, *Need)
	Run  func(*Pass)
}

// Input is the tree the rules run over: the files as sphinx-needs holds
// them once every document is read (needextend applied), the external
// needs, and the graph built of them.
type Input struct {
	Files    *source.FileSet
	Parsed   []*parser.File
	External []parser.Node
	Graph    *graph.Graph
	Project  *needs.Project
}

// Need is one need the rules read: its node, the file it is in (nil for
// an external need) and its docname (the document's path under Sphinx's
// source folder, without the suffix).
type Need struct {
	Node    *parser.Node
	File    *parser.File
	Docname string
	// Meta is the need's type in the metamodel the rules come from (nil
	// when none); Invalid: its status is "invalid".
	Meta    *metamodel.Type
	Invalid bool
	proj    *needs.Project
}

// Pass is one rule's run over a tree.
type Pass struct {
	Input
	// Needs are the tree's own needs, in file and source order.
	Needs []*Need
	rule  *Rule
	sev   *diag.Code
	index map[string]*Need
	out   *diag.List
}

// Lookup returns the need with an ID, the tree's own or an external one.
func (p *Pass) Lookup(id string) *Need { return p.index[id] }

// Report adds a diagnostic of the rule's code at sp.
func (p *Pass) Report(sp source.Span, format string, args ...any) {
	p.ReportAs(p.sev, sp, format, args...)
}

// ReportAs adds a diagnostic of the rule's code with the severity of
// code c (a rule whose findings S-CORE reports without failing the build
// for some of its entries, such as a graph check that is new).
func (p *Pass) ReportAs(c *diag.Code, sp source.Span, format string, args ...any) {
	if c == nil {
		return
	}
	*p.out = append(*p.out, diag.Diagnostic{Code: c, Message: fmt.Sprintf(format, args...), Span: sp})
}

// Warning is the rule's code at severity warning, nil when seg.toml
// turns the rule off.
func (p *Pass) Warning() *diag.Code {
	if p.sev == nil {
		return nil
	}
	return withSeverity(p.rule.Code, diag.Warning)
}

// Engine runs a set of rules.
type Engine struct {
	Rules []*Rule
	// Metamodel, when set, gives each need its Meta type.
	Metamodel *metamodel.Metamodel
	// severity maps a code's name to the code with the severity seg.toml
	// gives it (nil: off).
	severity map[string]*diag.Code
}

// Severities are the severities a rule's code may be given in seg.toml's
// [rules] severity.
var Severities = []string{"error", "warning", "off"}

// SetSeverity gives a rule's code another severity ("error", "warning" or
// "off"); its error names what is wrong.
func (e *Engine) SetSeverity(code, sev string) error {
	var c *diag.Code
	for _, r := range e.Rules {
		if r.Code.Name == code {
			c = r.Code
		}
	}
	if c == nil {
		var names []string
		for _, r := range e.Rules {
			names = append(names, r.Code.Name)
		}
		slices.Sort(names)
		return fmt.Errorf("%q is no rule's code%s (the rules: %s)", code, diag.DidYouMean(code, names), strings.Join(names, ", "))
	}
	if e.severity == nil {
		e.severity = map[string]*diag.Code{}
	}
	switch sev {
	case "error":
		e.severity[code] = withSeverity(c, diag.Error)
	case "warning":
		e.severity[code] = withSeverity(c, diag.Warning)
	case "off":
		e.severity[code] = nil
	default:
		return fmt.Errorf("%s = %q: a severity is one of %s", code, sev, strings.Join(Severities, ", "))
	}
	return nil
}

// withSeverity is c with another severity. The code keeps its name (and
// so its documentation); only the severity of its diagnostics changes.
func withSeverity(c *diag.Code, s diag.Severity) *diag.Code {
	if c.Severity == s {
		return c
	}
	return &diag.Code{Name: c.Name, Severity: s, Summary: c.Summary}
}

// Run runs every rule over the tree and returns their diagnostics, in
// rule order (the caller sorts them by position).
func (e *Engine) Run(in Input) diag.List {
	if len(e.Rules) == 0 {
		return nil
	}
	var out diag.List
	p := Pass{Input: in, out: &out}
	docRoot := ""
	if in.Project != nil {
		docRoot = in.Project.DocRoot
	}
	count := 0
	for _, f := range in.Parsed {
		count += len(f.Nodes)
	}
	all := make([]Need, 0, count)
	p.index = make(map[string]*Need, count)
	for _, f := range in.Parsed {
		doc := docname(f.Path, docRoot)
		for i := range f.Nodes {
			nd := &f.Nodes[i]
			if nd.ID == "" || nd.Kind == parser.Instruction || in.Project.Type(nd.Directive) == nil {
				continue
			}
			all = append(all, Need{Node: nd, File: f, Docname: doc, proj: in.Project, Meta: e.Metamodel.Type(nd.Directive)})
			n := &all[len(all)-1]
			if o := nd.Option("status"); o != nil && o.Value == "invalid" {
				n.Invalid = true
			}
			p.Needs = append(p.Needs, n)
			if _, dup := p.index[nd.ID]; !dup {
				p.index[nd.ID] = n
			}
		}
	}
	for i := range in.External {
		nd := &in.External[i]
		if _, dup := p.index[nd.ID]; !dup && nd.ID != "" {
			p.index[nd.ID] = &Need{Node: nd, proj: in.Project}
		}
	}
	type active struct {
		r   *Rule
		sev *diag.Code
	}
	var each []active
	for _, r := range e.Rules {
		sev, set := e.severity[r.Code.Name]
		if !set {
			sev = r.Code
		}
		if sev == nil {
			continue
		}
		if r.Need != nil {
			each = append(each, active{r, sev})
		}
		if r.Run != nil {
			p.rule, p.sev = r, sev
			r.Run(&p)
		}
	}
	if len(each) == 0 {
		return out
	}
	// The rules of one need read only the tree: several needs at once, each
	// worker with its own list (the caller sorts them all by position).
	workers := min(runtime.GOMAXPROCS(0), max(1, len(p.Needs)/512))
	lists := make([]diag.List, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q := p
			q.out = &lists[w]
			lo, hi := w*len(p.Needs)/workers, (w+1)*len(p.Needs)/workers
			for _, n := range p.Needs[lo:hi] {
				for _, a := range each {
					q.rule, q.sev = a.r, a.sev
					a.r.Need(&q, n)
				}
			}
		}()
	}
	wg.Wait()
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// docname is a file's path under the docs root, without its suffix.
func docname(p, root string) string {
	if root != "" {
		p = strings.TrimPrefix(p, root+"/")
	}
	return strings.TrimSuffix(p, path.Ext(p))
}

// ID is the need's ID.
func (n *Need) ID() string { return n.Node.ID }

// Type is the need's type (its directive).
func (n *Need) Type() string { return n.Node.Directive }

// Pos is where the need's directive starts.
func (n *Need) Pos() source.Span { return source.At(n.Node.Pos) }

// OptionSpan is where an option's value is written, the need's own
// position when it is not written.
func (n *Need) OptionSpan(name string) source.Span {
	if name == "id" {
		return source.At(n.Node.IDPos())
	}
	if o := n.Node.Option(name); o != nil {
		return source.At(o.Pos)
	}
	return n.Pos()
}

// coreFields are the fields sphinx-needs gives every need besides its
// options and link types.
var coreFields = map[string]bool{"id": true, "title": true, "content": true, "type": true, "docname": true,
	"status": true, "tags": true}

// Field is a field of the need as sphinx-needs holds it: a string for an
// option (its value, "" when not set; status None), a list of target IDs
// for a link option, a list of words for tags; ok is false when the need
// has no such field at all.
func (n *Need) Field(name string) (any, bool) {
	nd := n.Node
	switch name {
	case "id":
		return nd.ID, true
	case "title":
		return nd.Title, true
	case "content":
		return content(nd.Body), true
	case "type":
		return nd.Directive, true
	case "docname":
		return n.Docname, true
	case "tags":
		return n.Values("tags"), true
	}
	if n.proj.Link(name) != nil {
		return n.Values(name), true
	}
	o := nd.Option(name)
	if o == nil {
		if name == "status" {
			return nil, true
		}
		if !n.proj.Takes(name) && !coreFields[name] {
			return nil, false
		}
		return "", true
	}
	return o.Value, true
}

// Values are the need's values of a field as S-CORE's checks take them:
// none for an empty one, the target IDs of a link option (without the
// part or the condition written after them), the words of tags, the one
// value of any other.
func (n *Need) Values(name string) []string {
	nd := n.Node
	switch name {
	case "id":
		return nonEmpty(nd.ID)
	case "title":
		return nonEmpty(nd.Title)
	case "content":
		return nonEmpty(content(nd.Body))
	}
	o := nd.Option(name)
	if o == nil {
		return nil
	}
	if n.proj.Link(name) != nil {
		var out []string
		for _, l := range o.Links {
			if l.ID != "" {
				out = append(out, l.ID)
			}
		}
		return out
	}
	if name == "tags" {
		var out []string
		for _, t := range strings.FieldsFunc(o.Value, func(r rune) bool { return r == ',' || r == ';' }) {
			if t = strings.TrimSpace(t); t != "" {
				out = append(out, t)
			}
		}
		return out
	}
	return nonEmpty(o.Value)
}

// EachValue calls f with each of Values(name), without making the list.
func (n *Need) EachValue(name string, f func(string)) {
	nd := n.Node
	switch name {
	case "id", "title", "content":
		for _, v := range n.Values(name) {
			f(v)
		}
		return
	}
	o := nd.Option(name)
	if o == nil {
		return
	}
	switch {
	case n.proj.Link(name) != nil:
		for _, l := range o.Links {
			if l.ID != "" {
				f(l.ID)
			}
		}
	case name == "tags":
		for _, v := range n.Values(name) {
			f(v)
		}
	case o.Value != "":
		f(o.Value)
	}
}

// Has reports whether Values(name) is not empty.
func (n *Need) Has(name string) bool {
	has := false
	n.EachValue(name, func(string) { has = true })
	return has
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// content is a need's content as sphinx-needs holds it: its body without
// the blank lines around it ("" when it is only blank).
func content(body string) string {
	lines := strings.Split(body, "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}
