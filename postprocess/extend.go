package postprocess

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// extendable are sphinx-needs' own fields a needextend may change
// (besides the link types and the extra options).
var extendable = map[string]bool{"status": true, "tags": true, "constraints": true, "collapse": true,
	"hide": true, "style": true, "layout": true, "template": true, "pre_template": true, "post_template": true}

// listFields are the fields that hold lists: +option appends items.
var listFields = map[string]bool{"tags": true, "constraints": true}

// extension is one needextend.
type extension struct {
	fi, idx  int
	docname  string
	line     int
	priority int
	filter   string
	isID     bool
	at       source.Span // the argument, or the directive
}

// extend applies every needextend, as sphinx-needs does after it has read
// every document: in (extend_priority, docname, line) order; its argument
// is one ID when it is written <ID> or is a single word, else a filter
// ("..." quotes one) that selects the needs as the needextend directives
// applied before it left them; :option: replaces a value, :+option:
// appends to it (a space between strings; list items and links added, a
// link only once), :-option: removes it.
func (t *tree) extend() {
	var exts []extension
	for fi, f := range t.files {
		doc := t.docname(fi)
		for i := range f.Nodes {
			nd := &f.Nodes[i]
			if nd.Kind != parser.Instruction || nd.Directive != "needextend" {
				continue
			}
			e := extension{fi: fi, idx: i, docname: doc, line: t.line(nd.Pos), priority: 500, at: t.argSpan(nd)}
			if o := nd.Option("extend_priority"); o != nil {
				p, err := strconv.Atoi(strings.TrimSpace(o.Value))
				if err != nil || p < 0 {
					t.extendDiag(CodeInvalidNeedextend, source.At(o.ValuePos), "invalid :extend_priority: %q (want an integer of 0 or more); the needextend is not applied", o.Value)
					continue
				}
				e.priority = p
			}
			arg := strings.TrimSpace(nd.Title)
			switch {
			case strings.HasPrefix(arg, "<") && strings.HasSuffix(arg, ">"):
				e.isID, e.filter = true, arg[1:len(arg)-1]
				e.at = shift(e.at, 1)
			case len(arg) >= 2 && strings.HasPrefix(arg, `"`) && strings.HasSuffix(arg, `"`):
				e.filter = arg[1 : len(arg)-1]
				e.at = shift(e.at, 1)
			default:
				e.filter = arg
				e.isID = len(strings.Fields(arg)) == 1
			}
			if e.filter == "" {
				t.extendDiag(CodeInvalidNeedextend, e.at, "needextend without an ID or a filter")
				continue
			}
			exts = append(exts, e)
		}
	}
	slices.SortStableFunc(exts, func(a, b extension) int {
		return cmp.Or(cmp.Compare(a.priority, b.priority), strings.Compare(a.docname, b.docname), cmp.Compare(a.line, b.line))
	})
	for _, e := range exts {
		targets := t.extendTargets(e)
		if len(targets) == 0 {
			continue
		}
		ins := &t.files[e.fi].Nodes[e.idx]
		// sphinx-needs takes the options last first, and the link types
		// before the other fields.
		var links, others []parser.Option
		for k := len(ins.Options) - 1; k >= 0; k-- {
			o := ins.Options[k]
			base := strings.TrimLeft(o.Name, "+-")
			switch {
			case o.Name == "strict" || o.Name == "extend_priority":
			case t.in.Project.Link(base) != nil:
				links = append(links, o)
			case extendable[base] || t.in.Project.IsExtra(base):
				others = append(others, o)
			default:
				t.extendDiag(CodeInvalidNeedextend, source.At(o.Pos), "needextend cannot change :%s:; the option is ignored", base)
			}
		}
		for _, n := range targets {
			for _, o := range slices.Concat(links, others) {
				t.modify(n, o)
			}
		}
	}
}

func (t *tree) extendDiag(code *diag.Code, sp source.Span, format string, args ...any) {
	t.diag(diag.Diagnostic{Code: code, Span: sp, Message: fmt.Sprintf(format, args...)})
}

// extendTargets are the needs a needextend selects.
func (t *tree) extendTargets(e extension) []*need {
	if e.isID {
		n, ok := t.byID[e.filter]
		if !ok {
			t.diag(diag.Diagnostic{Code: CodeNeedextendNoTarget, Span: e.at,
				Message: fmt.Sprintf("needextend: no need has the ID %q", e.filter),
				Detail:  "sphinx-needs warns (or, with :strict:, stops) and changes nothing."})
			return nil
		}
		return []*need{n}
	}
	f, ferr := needs.ParseFilter(e.filter)
	if ferr != nil {
		t.diag(filterDiag(ferr, e.at, e.filter))
		return nil
	}
	var out []*need
	for _, n := range t.needs {
		ok, ferr := f.Match(fields{t, n}, t.filterContext(needs.FilterContext{Doc: e.docname, Docname: n.docname}))
		if ferr != nil {
			t.diag(filterDiag(ferr, e.at, e.filter))
			return nil
		}
		if ok {
			out = append(out, n)
		}
	}
	return out
}

// modify applies one needextend option to need n.
func (t *tree) modify(n *need, o parser.Option) {
	base := strings.TrimLeft(o.Name, "+-")
	nd := t.edit(n)
	old := nd.Option(base)
	isLink := t.in.Project.Link(base) != nil
	set := parser.Option{Name: base, Value: o.Value, Pos: o.Pos, ValuePos: o.ValuePos, Links: o.Links}
	switch {
	case strings.HasPrefix(o.Name, "-"):
		setOption(nd, base, parser.Option{}, false)
		return
	case strings.HasPrefix(o.Name, "+") && old != nil:
		if isLink {
			set.Links = slices.Clone(old.Links)
			for _, l := range o.Links {
				if !slices.ContainsFunc(set.Links, func(x parser.Link) bool { return x.Address() == l.Address() && x.Condition == l.Condition }) {
					set.Links = append(set.Links, l)
				}
			}
			set.Value = joinLinks(set.Links)
			set.Pos, set.ValuePos = old.Pos, old.ValuePos
		} else {
			sep := " "
			if listFields[base] {
				sep = ", "
			}
			set.Value = old.Value
			if strings.TrimSpace(o.Value) != "" {
				if strings.TrimSpace(old.Value) != "" {
					set.Value += sep + o.Value
				} else {
					set.Value = o.Value
				}
			}
		}
	}
	setOption(nd, base, set, true)
}

// joinLinks writes links back as an option value.
func joinLinks(links []parser.Link) string {
	parts := make([]string, len(links))
	for i, l := range links {
		parts[i] = l.Address()
		if l.Condition != "" {
			parts[i] += "[" + l.Condition + "]"
		}
	}
	return strings.Join(parts, ", ")
}

// argSpan is where a directive's argument starts: after its "::" on the
// directive's line.
func (t *tree) argSpan(nd *parser.Node) source.Span {
	at := source.At(nd.Pos)
	sf := t.in.Files.File(nd.Pos)
	if sf == nil {
		return at
	}
	src := sf.Source()
	off := nd.Pos.Offset()
	if src == nil || off < 0 || off >= len(src) {
		return at
	}
	rest := src[off:]
	if nl := strings.IndexAny(string(rest), "\n\r"); nl >= 0 {
		rest = rest[:nl]
	}
	i := strings.Index(string(rest), "::")
	if i < 0 {
		return at
	}
	i += 2
	for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t') {
		i++
	}
	return source.At(nd.Pos.Add(i))
}

// shift moves a span's start n bytes on.
func shift(sp source.Span, n int) source.Span {
	if !sp.Start.HasOffset() {
		return sp
	}
	return source.At(sp.Start.Add(n))
}
