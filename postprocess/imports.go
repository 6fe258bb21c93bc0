package postprocess

import (
	"cmp"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/cfgfile"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/needs/model"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// needimportOptions are the options sphinx-needs' needimport takes;
// docutils refuses any other, and the directive with it.
var needimportOptions = map[string]bool{"version": true, "hide": true, "collapse": true, "filter": true, "ids": true,
	"id_prefix": true, "tags": true, "style": true, "layout": true, "template": true, "pre_template": true,
	"post_template": true}

// isURL reports whether a path is a URL (a scheme and a host), which
// sphinx-needs would download.
func isURL(p string) bool {
	u, err := url.Parse(p)
	return err == nil && u.Scheme != "" && u.Host != ""
}

// load reads a needs.json named by a path or a URL; the error is the
// message of a diagnostic, and fetch tells it is a URL seg was not given a
// local copy of.
func (t *tree) load(where string, local string, version string) (f *needs.File, sf *source.File, fetch bool, msg string) {
	if isURL(where) {
		p, ok := t.in.Project.Fetched[where]
		if !ok {
			return nil, nil, true, ""
		}
		local = p
	}
	name := t.rel(local)
	data, err := cfgfile.Read(local)
	if err != nil {
		return nil, nil, false, fmt.Sprintf("cannot read %s: %v", name, err)
	}
	f, err = needs.ReadFile(data, version)
	if err != nil {
		return nil, nil, false, fmt.Sprintf("%s: %v", name, err)
	}
	sf = t.in.Files.Add(name, len(data), source.Newlines)
	sf.SetSource(data, true)
	return f, sf, false, ""
}

// notFetched is the error of a needs.json at a URL.
func notFetched(u string, sp source.Span, what string) diag.Diagnostic {
	return diag.Diagnostic{Code: CodeURLNotFetched, Span: sp,
		Message: fmt.Sprintf("%s %s: seg never fetches anything", what, u),
		Detail: fmt.Sprintf("Download it and name the local copy in seg.toml:\n    [needs]\n    external = {%q = \"path/to/needs.json\"}\n"+
			"(a path relative to the root), or pass --needs-file %s=path/to/needs.json. Until then every link to its needs is unresolved.", u, u)}
}

// importNeeds turns every needimport into the needs of its needs.json,
// as sphinx-needs does: needs of the document the needimport is in, at
// its line, with :id_prefix: before their IDs (and before the IDs their
// links name among them), :tags: added to theirs, and only those its
// :filter: selects.
func (t *tree) importNeeds() {
	for fi := range t.files {
		for i := 0; i < len(t.files[fi].Nodes); i++ {
			nd := &t.files[fi].Nodes[i]
			if nd.Kind == parser.Instruction && nd.Directive == "needimport" {
				t.needimport(fi, i)
			}
		}
	}
}

func (t *tree) needimport(fi, idx int) {
	ins := t.files[fi].Nodes[idx]
	at := source.At(ins.Pos)
	fail := func(format string, args ...any) {
		t.diag(diag.Diagnostic{Code: CodeInvalidNeedimport, Span: at, Message: fmt.Sprintf(format, args...),
			Detail: "sphinx-needs stops the build here; seg imports no need from this needimport."})
	}
	for _, o := range ins.Options {
		if !needimportOptions[o.Name] {
			fail("needimport has no option :%s: (docutils refuses the directive)", o.Name)
			return
		}
	}
	arg := strings.TrimSpace(ins.Title)
	if arg == "" {
		fail("needimport without a path")
		return
	}
	if key, ok := t.in.Project.ImportKeys[arg]; ok {
		arg = key // needs_import_keys: the argument is a key for a path
	}
	local := t.importPath(fi, arg)
	version := optionValue(&ins, "version")
	f, _, fetch, msg := t.load(arg, local, version)
	switch {
	case fetch:
		t.diag(notFetched(arg, at, "needimport of"))
		return
	case msg != "" && !fileExists(local) && t.confNames(local) > 0:
		t.diag(diag.Diagnostic{Code: CodeInvalidNeedimport, Span: at,
			Message: fmt.Sprintf("needimport: %s is not there; conf.py names it (line %d), so the build may write it", t.rel(local), t.confNames(local)),
			Detail: "seg reads the tree as it is and never runs conf.py: the needs this file would bring in are unknown, so nothing may count on them. " +
				"Generate the file before running seg (the step of the build that writes it), or commit it."})
		return
	case msg != "":
		fail("needimport: %s", msg)
		return
	}
	var filter *needs.Filter
	if src := optionValue(&ins, "filter"); src != "" {
		fl, ferr := needs.ParseFilter(src)
		if ferr != nil {
			t.diag(filterDiag(ferr, optionSpan(&ins, "filter"), src))
			return
		}
		filter = fl
	}
	made, ok := t.importNodes(&ins, f, filter, fail)
	if !ok || len(made) == 0 {
		return
	}
	t.editNode(fi, idx) // copies the file
	if t.imported == nil {
		t.imported = map[[2]int]bool{}
	}
	for _, nd := range made {
		t.files[fi].Nodes = append(t.files[fi].Nodes, nd)
		t.imported[[2]int{fi, len(t.files[fi].Nodes) - 1}] = true
	}
}

// importNodes makes the nodes that the needimport ins imports from f: the
// needs that filter (when not nil) keeps, of a need type of the project,
// with id_prefix before their IDs and the links among them, and with the
// directive's tags added. ok is false when the filter fails on a need:
// then nothing is imported.
func (t *tree) importNodes(ins *parser.Node, f *needs.File, filter *needs.Filter, fail func(format string, args ...any)) (made []parser.Node, ok bool) {
	prefix := optionValue(ins, "id_prefix")
	extraTags := splitTags(optionValue(ins, "tags"))
	// As sphinx-needs: :ids: keeps the needs of those keys, then the
	// filter selects among them (on their IDs as the file has them), and
	// only then does :id_prefix: rename the kept needs and the links to
	// them: a link to a need the import left out keeps its ID.
	var only map[string]bool
	if v := optionValue(ins, "ids"); v != "" {
		only = map[string]bool{}
		for _, k := range strings.Split(v, ",") {
			if k = strings.TrimSpace(k); k != "" {
				only[k] = true
			}
		}
	}
	var kept []*needs.ReadNeed
	for k := range f.Needs {
		rn := &f.Needs[k]
		if only != nil && !only[rn.Key] {
			continue
		}
		if filter != nil {
			keep, ferr := filter.Match(readFields{rn}, t.filterContext(needs.FilterContext{Docname: rn.Str("docname")}))
			if ferr != nil {
				t.diag(filterDiag(ferr, optionSpan(ins, "filter"), filter.Source))
				return nil, false
			}
			if !keep {
				continue
			}
		}
		kept = append(kept, rn)
	}
	ids := map[string]bool{}
	for _, rn := range kept {
		ids[rn.Key] = true
	}
	rename := func(id string) string {
		if prefix != "" && ids[id] {
			return prefix + id
		}
		return id
	}
	for _, rn := range kept {
		typ := rn.Str("type")
		kind, known := t.in.Config.Directives[typ]
		if !known || t.in.Project.Type(typ) == nil {
			fail("needimport: need %q has the type %q, which is no need type of this project", rn.Str("id"), typ)
			continue
		}
		nd := parser.Node{Kind: kind, Imported: true, Directive: typ, ID: prefix + rn.Str("id"), Title: rn.Str("title"),
			Pos: ins.Pos, Parent: ins.Parent, Body: cmp.Or(rn.Str("content"), rn.Str("description"))}
		nd.Options = t.readOptions(rn, ins.Pos, append(rn.Strings("tags"), extraTags...), rename)
		made = append(made, nd)
	}
	return made, true
}

// importPath is the file a needimport of the document fi names (a URL is
// left as it is): relative to the document, or to conf.py's folder when it
// starts with "/", or, the old way, relative to conf.py's folder when no
// file is beside the document.
func (t *tree) importPath(fi int, arg string) string {
	p := t.in.Project
	switch {
	case isURL(arg):
		return ""
	case strings.HasPrefix(arg, "/"):
		return filepath.Join(p.SrcDir, filepath.FromSlash(arg[1:]))
	}
	docDir := filepath.Dir(filepath.Join(t.in.Root, filepath.FromSlash(t.files[fi].Path)))
	local := filepath.Join(docDir, filepath.FromSlash(arg))
	if _, err := os.Stat(local); err != nil {
		if old := filepath.Join(p.SrcDir, filepath.FromSlash(arg)); fileExists(old) {
			return old
		}
	}
	return local
}

// splitTags splits a needimport's :tags: on "," and ";".
func splitTags(v string) []string {
	var out []string
	for _, tg := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' }) {
		out = append(out, strings.TrimSpace(tg))
	}
	return out
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// readOptions are the options of a need read from a needs.json: status,
// tags, the project's extra options and its link types (each target's ID
// mapped by rename, its part and condition kept), at pos.
func (t *tree) readOptions(rn *needs.ReadNeed, pos source.Pos, tags []string, rename func(string) string) []parser.Option {
	p := t.in.Project
	var opts []parser.Option
	add := func(name, value string, links []parser.Link) {
		opts = append(opts, parser.Option{Name: name, Value: value, Pos: pos, ValuePos: pos, Links: links})
	}
	if s, ok := rn.Fields["status"].(string); ok {
		add("status", s, nil)
	}
	if len(tags) > 0 {
		add("tags", strings.Join(tags, ", "), nil)
	}
	for _, o := range p.Extra {
		if p.Link(o) != nil {
			continue
		}
		switch v := rn.Fields[o].(type) {
		case string:
			if v != "" {
				add(o, v, nil)
			}
		case float64, bool:
			add(o, fmt.Sprint(pyValue(v)), nil)
		}
	}
	if rename == nil {
		return opts
	}
	for _, lt := range p.Links {
		entries := rn.Strings(lt.Option)
		if len(entries) == 0 || lt.Option == "parent_needs" {
			continue
		}
		links := make([]parser.Link, 0, len(entries))
		var texts []string
		for _, entry := range entries {
			// An entry may carry a condition (sphinx-needs writes
			// "ID[status=='open']" into needs.json as it was written):
			// read it as the link syntax reads one in a directive.
			split, _ := model.SplitLinks([]byte(entry), lt.Option, lt)
			for _, e := range split {
				if e.ID == "" {
					continue
				}
				l := parser.Link{Span: source.At(pos), ID: e.ID, Part: e.Part, Condition: e.Condition}
				if !model.IsFunction(e.ID) {
					// A link to a part of a kept need follows the need.
					l.ID = rename(e.ID)
				}
				links = append(links, l)
				texts = append(texts, l.Address())
			}
		}
		add(lt.Option, strings.Join(texts, ", "), links)
	}
	return opts
}

// confNames is the line of the project's conf.py that names the file at
// path (its base name, in quotes), 0 when none does: a file conf.py names
// and that is not there is likely one the build writes.
func (t *tree) confNames(path string) int {
	data, err := cfgfile.Read(filepath.Join(t.in.Project.SrcDir, "conf.py"))
	if err != nil {
		return 0
	}
	base := filepath.Base(path)
	for i, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, `"`+base) || strings.Contains(line, `'`+base) || strings.Contains(line, "/"+base) {
			return i + 1
		}
	}
	return 0
}

// filterContext is ctx with the project's needs_filter_data.
func (t *tree) filterContext(ctx needs.FilterContext) needs.FilterContext {
	ctx.Data, ctx.DataUnknown = t.in.Project.FilterData, t.in.Project.FilterDataUnknown
	return ctx
}

// external adds the needs of every needs_external_needs source: nodes of
// kind need, External, placed in their needs.json. Their own links are not
// read: they name the other project's needs, which are not this tree's to
// check.
func (t *tree) external() {
	p := t.in.Project
	for _, src := range p.External {
		at := t.configSpan(src.Line)
		local := src.JSONPath
		if local != "" && !filepath.IsAbs(local) {
			local = filepath.Join(cmp.Or(src.Base, p.SrcDir), filepath.FromSlash(local))
		}
		where := src.JSONURL
		if where == "" {
			where = local
		}
		f, sf, fetch, msg := t.load(where, local, src.Version)
		switch {
		case fetch:
			t.diag(notFetched(src.JSONURL, at, "needs_external_needs names"))
			continue
		case msg != "":
			t.diag(diag.Diagnostic{Code: CodeInvalidExternal, Span: at, Message: "needs_external_needs: " + msg,
				Detail: "sphinx-needs stops the build here; seg reads no need of this source, so every link to one is unresolved."})
			continue
		}
		for k := range f.Needs {
			rn := &f.Needs[k]
			id := src.IDPrefix + rn.Str("id")
			pos := sf.Pos(rn.Offset)
			if prev, dup := t.byID[id]; dup && !prev.external() {
				continue // graph reports the duplicate ID: the local need wins
			}
			nd := parser.Node{Kind: parser.Need, Directive: rn.Str("type"), ID: id, Title: rn.Str("title"),
				Pos: pos, Parent: -1, External: true}
			nd.Options = t.readOptions(rn, pos, rn.Strings("tags"), nil)
			t.ext = append(t.ext, nd)
			n := &need{file: -1, idx: len(t.ext) - 1, docname: rn.Str("docname"), line: rn.Line}
			t.needs = append(t.needs, n)
			if _, dup := t.byID[id]; !dup {
				t.byID[id] = n
			}
		}
	}
}

// configSpan is a line of the project file (for a diagnostic about its
// settings); the file joins the file set when first needed.
func (t *tree) configSpan(line int) source.Span {
	p := t.in.Project
	if p.File == "" {
		return source.Span{}
	}
	if t.config == nil {
		data, err := cfgfile.Read(p.File)
		if err != nil {
			return source.Span{}
		}
		t.config = t.in.Files.Add(t.rel(p.File), len(data), source.Newlines)
		t.config.SetSource(data, true)
	}
	lines := t.config.Lines()
	if line < 1 || line > len(lines) {
		return source.At(t.config.Whole())
	}
	return source.At(t.config.Pos(int(lines[line-1])))
}

// readFields is a need of a needs.json file as a filter reads it: its
// fields, with "content" for its description.
type readFields struct{ n *needs.ReadNeed }

func (r readFields) Field(name string) (any, bool) {
	if name == "content" {
		name = "description"
	}
	v, ok := r.n.Fields[name]
	if !ok {
		return nil, false
	}
	return pyValue(v), true
}

// pyValue turns a JSON value into a filter value: a whole number is an
// int, as Python's json reads it.
func pyValue(v any) any {
	switch x := v.(type) {
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int(x)
		}
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		if len(out) == len(x) {
			return out
		}
	}
	return v
}

func optionValue(nd *parser.Node, name string) string {
	if o := nd.Option(name); o != nil {
		return strings.TrimSpace(o.Value)
	}
	return ""
}

func optionSpan(nd *parser.Node, name string) source.Span {
	if o := nd.Option(name); o != nil {
		return source.At(o.ValuePos)
	}
	return source.At(nd.Pos)
}

// filterDiag is the diagnostic of a filter string seg cannot evaluate,
// written at sp (where the string starts, when it is on one line).
func filterDiag(e *needs.FilterError, sp source.Span, src string) diag.Diagnostic {
	d := diag.Diagnostic{Code: e.Code(), Span: sp, Message: fmt.Sprintf("filter %q: %s", src, e.Msg)}
	if !strings.Contains(src, "\n") && sp.Start.HasOffset() {
		d.Span = source.Span{Start: sp.Start.Add(e.Offset), End: sp.Start.Add(max(e.End, e.Offset+1))}
	}
	if e.Unsupported {
		d.Detail = "seg evaluates the subset of Python that filters use (docs/sphinx-needs.md, \"Filters\"); it cannot say what sphinx-needs would select here, so it applies nothing."
	} else {
		d.Detail = "sphinx-needs cannot evaluate this filter either: it warns and selects nothing."
	}
	return d
}

// rel is a path on disk as seg names files: relative to the root, with
// forward slashes, when it is under the root.
func (t *tree) rel(p string) string {
	if r, err := filepath.Rel(t.in.Root, p); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(p)
}
