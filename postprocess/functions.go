package postprocess

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/lazyre"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/needs/model"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// Dynamic functions ("[[copy('status')]]") in a need's option values and
// link lists are computed after every needextend, as sphinx-needs does,
// with its built-in functions whose result depends only on the needs:
// echo, test, copy, check_linked_values, calc_sum and links_from_content.
// A field is computed when it is first read (by another need's copy, or
// in turn), so a copy of a computed field reads its result whatever the
// order of the needs; a field that reads itself through others is
// invalid-dynamic-function. Any other function (one the project registers
// with needs_functions, a variant <<...>>) is unsupported-dynamic-function:
// the field keeps the call as written, and a link entry stays open.

// funcPattern finds the calls in a value, as sphinx-needs' func_pattern.
var funcPattern = lazyre.New(`\[\[(.*?)\]\]`)

// builtins are the functions seg computes, with their parameters in
// order (sphinx-needs passes app, need and needs before them).
var builtins = map[string][]string{
	"echo":                {"text"},
	"test":                nil, // *args, **kwargs
	"copy":                {"option", "need_id", "lower", "upper", "filter"},
	"check_linked_values": {"result", "search_option", "search_value", "filter_string", "one_hit"},
	"calc_sum":            {"option", "filter", "links_only"},
	"links_from_content":  {"need_id", "filter"},
}

// required counts the leading parameters without a default.
var required = map[string]int{"echo": 1, "copy": 1, "check_linked_values": 3, "calc_sum": 1}

type fieldKey struct {
	n    *need
	name string
}

// functions computes every dynamic function of every need.
func (t *tree) functions() {
	t.state = map[fieldKey]uint8{}
	for _, n := range t.needs {
		if n.external() {
			continue
		}
		nd := t.node(n)
		if strings.Contains(nd.Title, "[[") {
			t.resolve(n, "title")
		}
		for _, o := range nd.Options {
			if strings.Contains(o.Value, "[[") || hasFunc(o.Links) {
				t.resolve(n, o.Name)
			}
		}
	}
}

func hasFunc(links []parser.Link) bool {
	for _, l := range links {
		if strings.HasPrefix(l.ID, "[[") || model.IsVariantData(l.ID) {
			return true
		}
	}
	return false
}

// resolve computes the functions in field name of need n, once; before
// functions() it does nothing (needextend filters read values as
// written).
func (t *tree) resolve(n *need, name string) {
	if t.state == nil || n.external() {
		return
	}
	k := fieldKey{n, name}
	switch t.state[k] {
	case 1:
		at := source.At(t.node(n).Pos)
		if o := t.node(n).Option(name); o != nil {
			at = source.At(o.ValuePos)
		}
		t.diag(diag.Diagnostic{Code: CodeInvalidFunc, Span: at,
			Message: fmt.Sprintf("the dynamic functions of :%s: of %q read their own result", name, t.node(n).ID),
			Detail:  "A copy (or another function) reads back, through other needs, the field it computes: sphinx-needs cannot order that either."})
		return
	case 2:
		return
	}
	t.state[k] = 1
	defer func() { t.state[k] = 2 }()
	nd := t.node(n)
	if name == "title" {
		if strings.Contains(nd.Title, "[[") {
			v, changed := t.replaceCalls(n, nd.Title, source.At(nd.Pos))
			if changed {
				t.edit(n).Title = v
			}
		}
		return
	}
	o := nd.Option(name)
	if o == nil {
		return
	}
	switch {
	case t.in.Project.Link(name) != nil:
		if hasFunc(o.Links) {
			t.resolveLinks(n, *o)
		}
	case listFields[name]:
		if strings.Contains(o.Value, "[[") {
			t.resolveList(n, *o)
		}
	default:
		if strings.Contains(o.Value, "[[") {
			v, changed := t.replaceCalls(n, o.Value, source.At(o.ValuePos))
			if changed {
				set := *o
				set.Value = v
				setOption(t.edit(n), name, set, v != "")
			}
		}
	}
}

// replaceCalls replaces every call in a string field with the text of its
// result (nothing for None); changed is false when a call could not be
// computed, and then the value stays as written.
func (t *tree) replaceCalls(n *need, v string, at source.Span) (string, bool) {
	out := v
	for _, m := range funcPattern.FindAllStringSubmatch(v, -1) {
		res, ok := t.call(n, m[1], at)
		if !ok {
			return v, false
		}
		text := ""
		if res != nil {
			text = needs.PyStr(res)
		}
		out = strings.Replace(out, m[0], text, 1)
	}
	return out, true
}

// resolveList computes the calls among a list field's items (tags): a
// call's list result adds its items.
func (t *tree) resolveList(n *need, o parser.Option) {
	var items []string
	for _, it := range splitKeepingCalls(o.Value) {
		if !strings.HasPrefix(it, "[[") || !strings.HasSuffix(it, "]]") {
			items = append(items, it)
			continue
		}
		res, ok := t.call(n, it[2:len(it)-2], source.At(o.ValuePos))
		if !ok {
			return
		}
		items = append(items, resultItems(res)...)
	}
	set := o
	set.Value = strings.Join(items, ", ")
	setOption(t.edit(n), o.Name, set, true)
}

// resolveLinks computes the calls among a link option's entries; each
// result's IDs become links at the call's place.
func (t *tree) resolveLinks(n *need, o parser.Option) {
	var links []parser.Link
	changed := false
	for _, l := range o.Links {
		var res any
		var ok bool
		switch {
		case model.IsVariantData(l.ID):
			res, ok = t.variant(l)
		case strings.HasPrefix(l.ID, "[["):
			res, ok = t.call(n, strings.TrimSuffix(strings.TrimPrefix(l.ID, "[["), "]]"), l.Span)
		default:
			links = append(links, l)
			continue
		}
		if !ok {
			links = append(links, l)
			continue
		}
		changed = true
		for _, id := range resultItems(res) {
			nl := parser.Link{Span: l.Span}
			if a, part, ok := strings.Cut(id, "."); ok {
				nl.ID, nl.Part = a, part
			} else {
				nl.ID = id
			}
			links = append(links, nl)
		}
	}
	if changed {
		set := o
		set.Links = links
		set.Value = joinLinks(links)
		setOption(t.edit(n), o.Name, set, true)
	}
}

// variant resolves a variant data reference in a link list ("<{
// var.links }>") against the project's variant data; ok is false when seg
// does not know them (a diagnostic says so) or the reference does not
// resolve, and then the entry stays open: it makes no edge.
func (t *tree) variant(l parser.Link) (any, bool) {
	p := t.in.Project
	if !p.VariantKnown {
		t.diag(diag.Diagnostic{Code: CodeUnsupportedFunc, Span: l.Span,
			Message: fmt.Sprintf("%s: seg does not know the project's variant data", l.ID),
			Detail:  "needs_variant_data is computed, or needs_variant_data_file names a file seg cannot read; the entry makes no link. Write the variant data as literals (or commit the file) for seg to read them."})
		return nil, false
	}
	v, err := p.Variant(needs.VariantExpr(l.ID))
	if err != nil {
		t.diag(diag.Diagnostic{Code: CodeInvalidFunc, Span: l.Span, Message: fmt.Sprintf("%s: %v", l.ID, err),
			Detail: "sphinx-needs cannot resolve this reference either: it warns and the entry makes no link, so seg adds none."})
		return nil, false
	}
	if s, isStr := v.(string); isStr {
		return needs.SplitList(s), true
	}
	return v, true
}

// resultItems are the items a result adds to a list.
func resultItems(res any) []string {
	switch v := res.(type) {
	case nil:
		return nil
	case []string:
		return v
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			out = append(out, needs.PyStr(x))
		}
		return out
	}
	return []string{needs.PyStr(res)}
}

// splitKeepingCalls splits a list value on "," and ";" as sphinx-needs
// does, putting back together a call the split cut.
func splitKeepingCalls(v string) []string {
	var out []string
	open := false
	for _, p := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' }) {
		if open {
			out[len(out)-1] += "," + p
			open = !strings.Contains(p, "]]")
			continue
		}
		open = strings.Contains(p, "[[") && !strings.Contains(p, "]]")
		out = append(out, p)
	}
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	return out
}

// call computes one function call for need n; ok is false when it cannot
// be computed (a diagnostic says why).
func (t *tree) call(n *need, src string, at source.Span) (res any, ok bool) {
	fail := func(code *diag.Code, format string, args ...any) (any, bool) {
		d := diag.Diagnostic{Code: code, Span: at, Message: fmt.Sprintf("[[%s]]: ", src) + fmt.Sprintf(format, args...)}
		if code == CodeUnsupportedFunc {
			d.Detail = "seg computes sphinx-needs' built-in functions whose result depends only on the needs; it keeps this call as written (a link entry stays open)."
		} else {
			d.Detail = "sphinx-needs cannot compute this call either: it warns and keeps the field as written, so seg keeps it too (a link entry stays open and makes no edge)."
		}
		t.diag(d)
		return nil, false
	}
	c, perr := needs.ParseCall(src)
	if perr != nil {
		if perr.Unsupported {
			return fail(CodeUnsupportedFunc, "%s", perr.Msg)
		}
		return fail(CodeInvalidFunc, "%s", perr.Msg)
	}
	params, known := builtins[c.Name]
	if !known {
		return fail(CodeUnsupportedFunc, "%q is not one of sphinx-needs' built-in functions seg computes (echo, test, copy, check_linked_values, calc_sum, links_from_content)", c.Name)
	}
	var args map[string]any
	if c.Name != "test" {
		var err string
		if args, err = bind(c, params); err != "" {
			return fail(CodeInvalidFunc, "%s", err)
		}
	}
	switch c.Name {
	case "echo":
		return args["text"], true
	case "test":
		return fmt.Sprintf("Test output of need %s. args: %s. kwargs: %s", t.node(n).ID, pyTuple(c.Args), pyDict(c.Keys, c.Kwargs)), true
	case "copy":
		return t.copyFunc(n, args, at, fail)
	case "check_linked_values":
		return t.checkLinkedValues(n, args, at, fail)
	case "calc_sum":
		return t.calcSum(n, args, at, fail)
	case "links_from_content":
		return t.linksFromContent(n, args, at, fail)
	}
	return fail(CodeUnsupportedFunc, "unknown function")
}

// copyFunc is sphinx-needs' copy: a field of need n, of need_id, or of
// the first need the filter selects (with current_need n), lower- or
// upper-cased.
func (t *tree) copyFunc(n *need, args map[string]any, at source.Span, fail failFunc) (any, bool) {
	opt, okOpt := args["option"].(string)
	if !okOpt {
		return fail(CodeInvalidFunc, "copy() takes the option's name as a string")
	}
	src := n
	if id, _ := args["need_id"].(string); id != "" {
		m, ok := t.byID[id]
		if !ok {
			return fail(CodeInvalidFunc, "copy(): no need has the ID %q", id)
		}
		src = m
	}
	filter, ok := t.argFilter(args, "filter", at)
	if !ok {
		return nil, false
	}
	if filter != nil {
		for _, m := range t.needs {
			hit, ferr := filter.Match(fields{t, m}, t.filterContext(needs.FilterContext{Docname: m.docname, Current: fields{t, n}}))
			if ferr != nil {
				t.diag(filterDiag(ferr, at, filter.Source))
				return nil, false
			}
			if hit {
				src = m
				break
			}
		}
	}
	v, ok := fields{t, src}.Field(opt)
	if !ok {
		return fail(CodeInvalidFunc, "copy(): the need has no field %q", opt)
	}
	if _, nc := v.(needs.NotComputed); nc {
		return fail(CodeUnsupportedFunc, "copy() of the field %q, which seg does not compute", opt)
	}
	lower, upper := needs.Truthy(args["lower"]), needs.Truthy(args["upper"])
	if !lower && !upper {
		return v, true
	}
	s, isStr := v.(string)
	if !isStr {
		return fail(CodeInvalidFunc, "copy(): lower or upper on a value that is no string")
	}
	if lower {
		return strings.ToLower(s), true
	}
	return strings.ToUpper(s), true
}

// bind matches a call's arguments with a built-in's parameters.
func bind(c *needs.Call, params []string) (map[string]any, string) {
	args := map[string]any{}
	if len(c.Args) > len(params) {
		return nil, fmt.Sprintf("%s() takes at most %d arguments (%d given)", c.Name, len(params), len(c.Args))
	}
	for i, a := range c.Args {
		args[params[i]] = a
	}
	keys := make([]string, 0, len(c.Kwargs))
	for k := range c.Kwargs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		known := false
		for _, p := range params {
			known = known || p == k
		}
		if !known {
			return nil, fmt.Sprintf("%s() got an unexpected keyword argument %q", c.Name, k)
		}
		if _, dup := args[k]; dup {
			return nil, fmt.Sprintf("%s() got multiple values for argument %q", c.Name, k)
		}
		args[k] = c.Kwargs[k]
	}
	for _, p := range params[:required[c.Name]] {
		if _, ok := args[p]; !ok {
			return nil, fmt.Sprintf("%s() is missing the argument %q", c.Name, p)
		}
	}
	return args, ""
}

type failFunc func(code *diag.Code, format string, args ...any) (any, bool)

// linkedNeeds are the needs need n's "links" name; an ID no need has is
// an error, as in sphinx-needs (a KeyError).
func (t *tree) linkedNeeds(n *need, fail failFunc) ([]*need, bool) {
	ids, _ := fields{t, n}.Field("links")
	var out []*need
	for _, id := range ids.([]string) {
		m, ok := t.byID[id]
		if !ok {
			fail(CodeInvalidFunc, "the need links to %q, which no need has", id)
			return nil, false
		}
		out = append(out, m)
	}
	return out, true
}

// checkLinkedValues is sphinx-needs' check_linked_values: result when the
// needs n links to have search_value (one of a list) in search_option
// (with one_hit, when the first of them that has does; and, as
// sphinx-needs' code has it, also when none does), else None.
func (t *tree) checkLinkedValues(n *need, args map[string]any, at source.Span, fail failFunc) (any, bool) {
	linked, ok := t.linkedNeeds(n, fail)
	if !ok {
		return nil, false
	}
	opt, _ := args["search_option"].(string)
	want, isList := args["search_value"].([]any)
	if !isList {
		want = []any{args["search_value"]}
	}
	filter, ok := t.argFilter(args, "filter_string", at)
	if !ok {
		return nil, false
	}
	oneHit := needs.Truthy(args["one_hit"])
	for _, m := range linked {
		if filter != nil {
			hit, ferr := filter.Match(fields{t, m}, t.filterContext(needs.FilterContext{Docname: m.docname}))
			if ferr != nil {
				t.diag(filterDiag(ferr, at, filter.Source))
			} else if !hit {
				continue
			}
		}
		v, okv := fields{t, m}.Field(opt)
		if !okv {
			return fail(CodeInvalidFunc, "check_linked_values(): %q has no field %q", t.node(m).ID, opt)
		}
		in := false
		for _, w := range want {
			in = in || needs.PyEqual(v, w)
		}
		if !oneHit && !in {
			return nil, true
		}
		if oneHit && in {
			return args["result"], true
		}
	}
	return args["result"], true
}

// argFilter is a function's filter argument, parsed; nil when not given,
// ok false (and a diagnostic) when it cannot be read.
func (t *tree) argFilter(args map[string]any, name string, at source.Span) (*needs.Filter, bool) {
	fs, _ := args[name].(string)
	if fs == "" {
		return nil, true
	}
	f, ferr := needs.ParseFilter(fs)
	if ferr != nil {
		t.diag(filterDiag(ferr, at, fs))
		return nil, false
	}
	return f, true
}

// calcSum is sphinx-needs' calc_sum: the sum of float(option) over the
// needs a filter selects (all needs, or with links_only those need n
// links to); a value float() refuses counts nothing, and one that is not
// a string or a number fails.
func (t *tree) calcSum(n *need, args map[string]any, at source.Span, fail failFunc) (any, bool) {
	check := t.needs
	if needs.Truthy(args["links_only"]) {
		linked, ok := t.linkedNeeds(n, fail)
		if !ok {
			return nil, false
		}
		check = linked
	}
	opt, _ := args["option"].(string)
	filter, ok := t.argFilter(args, "filter", at)
	if !ok {
		return nil, false
	}
	sum := 0.0
	for _, m := range check {
		if filter != nil {
			hit, ferr := filter.Match(fields{t, m}, t.filterContext(needs.FilterContext{Docname: m.docname}))
			if ferr != nil && ferr.Unsupported {
				t.diag(filterDiag(ferr, at, filter.Source))
				return nil, false
			}
			if ferr == nil && !hit {
				continue
			}
		}
		v, okv := fields{t, m}.Field(opt)
		if !okv {
			return fail(CodeInvalidFunc, "calc_sum(): %q has no field %q", t.node(m).ID, opt)
		}
		if v == nil {
			continue // an option not set: nothing to add
		}
		f, ok, typeErr := needs.PyFloatOf(v)
		if typeErr {
			return fail(CodeInvalidFunc, "calc_sum(): float() of %s on %q", needs.PyRepr(v), t.node(m).ID)
		}
		if ok {
			sum += f
		}
	}
	return sum, true
}

// contentLinks finds :need:`ID` and :need:`text <ID>` roles, as
// links_from_content does.
var contentLinks = lazyre.New(":need:`(\\w+)`|:need:`.+\\<(.+)\\>`")

// linksFromContent is sphinx-needs' links_from_content: the IDs the
// content of a need (n, or need_id) names with :need: roles.
func (t *tree) linksFromContent(n *need, args map[string]any, at source.Span, fail failFunc) (any, bool) {
	src := n
	if id, _ := args["need_id"].(string); id != "" {
		m, ok := t.byID[id]
		if !ok {
			return fail(CodeInvalidFunc, "links_from_content(): no need has the ID %q", id)
		}
		src = m
	}
	var raw []string
	contains := func(s string) bool { return slices.Contains(raw, s) }
	for _, m := range contentLinks.FindAllStringSubmatch(t.node(src).Body, -1) {
		// As sphinx-needs' code has it: the second form is checked against
		// the first group, so it may repeat.
		if m[1] != "" && !contains(m[1]) {
			raw = append(raw, m[1])
		} else if m[2] != "" && !contains(m[1]) {
			raw = append(raw, m[2])
		}
	}
	fs, _ := args["filter"].(string)
	if fs == "" {
		return raw, true
	}
	f, ferr := needs.ParseFilter(fs)
	if ferr != nil {
		t.diag(filterDiag(ferr, at, fs))
		return nil, false
	}
	var out []string
	for _, id := range raw {
		m, ok := t.byID[id]
		if !ok {
			return fail(CodeInvalidFunc, "links_from_content(): no need has the ID %q", id)
		}
		hit, ferr := f.Match(fields{t, m}, t.filterContext(needs.FilterContext{Docname: m.docname}))
		if ferr != nil {
			t.diag(filterDiag(ferr, at, fs))
			return nil, false
		}
		if hit && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out, true
}

// pyTuple and pyDict are Python's repr() of test()'s args and kwargs.
func pyTuple(args []any) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = needs.PyRepr(a)
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func pyDict(keys []string, kw map[string]any) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = needs.PyRepr(k) + ": " + needs.PyRepr(kw[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
