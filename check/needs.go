package check

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/internal/cfgfile"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// The diagnostic codes of a tree seg could not map (docs/codes.md).
var (
	CodeNoRequirements = diag.NewError("no-requirements", "a tree in which seg found no requirement: it checked nothing")
	CodeUnloadedTypes  = diag.NewWarning("unloaded-need-types", "what seg could not load of a project whose directives it cannot map")
)

// unmapped makes sure a tree seg could not map never passes in silence:
// the directives with an :id: of types seg does not know become one
// unknown-need-type warning per name (how many, and the first), with a
// summary of what seg could not load (unloaded-need-types); a tree without
// any requirement is the error no-requirements, unless allowed.
func (t *Tree) unmapped(fset *source.FileSet, diags diag.List, g *graph.Graph, o Options) diag.List {
	diags.Sort(fset)
	type kind struct {
		first int // index in out
		count int
	}
	byName := map[string]*kind{}
	var names []string
	out := diags[:0:0]
	for _, d := range diags {
		if d.Code != parser.CodeUnknownNeedType {
			out = append(out, d)
			continue
		}
		if k := byName[d.Message]; k != nil {
			k.count++
			continue
		}
		byName[d.Message] = &kind{first: len(out), count: 1}
		names = append(names, d.Message)
		out = append(out, d)
	}
	total := 0
	for _, m := range names {
		k := byName[m]
		total += k.count
		d := &out[k.first]
		name, _, _ := strings.Cut(strings.TrimPrefix(d.Message, "unknown need type "), ":")
		d.Message = fmt.Sprintf("unknown need type %s: %s with an :id: that seg reads no node from (the first here)", name, count(k.count, "directive"))
		d.Detail = "It is no need type of the project seg read and no seg directive: map its type, or tell seg where the project's need types are (see the unloaded-need-types warning)."
	}
	if total > 0 {
		out = append(out, t.unloaded(fset, out[byName[names[0]].first].Span, names, total))
	}
	requirements := 0
	for n := range g.Nodes() {
		if n.IsRequirement() {
			requirements++
		}
	}
	if requirements == 0 && !o.AllowEmpty && !t.Config.AllowEmpty {
		d := diag.Diagnostic{Code: CodeNoRequirements,
			Message: fmt.Sprintf("no requirement in the tree: seg read %d nodes and checked nothing", g.Len()),
			Detail: "A tree without requirements never passes. In a sphinx-needs project, map its need types onto seg's kinds in seg.toml's [needs.types]; " +
				"if the tree is meant to hold none, pass --allow-empty or set allow_empty = true in seg.toml."}
		if total > 0 {
			d.Message += fmt.Sprintf(", and found %s with an :id: of types it cannot map", count(total, "directive"))
		}
		out = append(out, d)
	}
	return out
}

// unloaded is the summary of what seg could not load, where the project
// says it (conf.py's extensions), else at the first unmapped directive.
func (t *Tree) unloaded(fset *source.FileSet, first source.Span, names []string, total int) diag.Diagnostic {
	types := make([]string, len(names))
	for i, m := range names {
		name, _, _ := strings.Cut(strings.TrimPrefix(m, "unknown need type "), ":")
		types[i] = name
	}
	d := diag.Diagnostic{Code: CodeUnloadedTypes, Span: first,
		Message: fmt.Sprintf("seg cannot map %s of %s (%s)", count(total, "directive"), count(len(types), "type"), strings.Join(types, ", "))}
	var why []string
	p := t.Config.Needs
	cp := needs.FindConfPy(t.Root)
	exts := cp.Extensions
	if p != nil && p.Extensions != nil {
		exts = p.Extensions
	}
	switch {
	case p == nil && cp.Path == "":
		why = append(why, "the tree has no sphinx-needs project seg can read: no ubproject.toml at the root, no conf.py in the usual places, no [needs] config in seg.toml")
	case p == nil && !cp.LoadsNeeds:
		why = append(why, fmt.Sprintf("%s does not name sphinx_needs among its extensions: if one of them (%s) loads it, seg cannot see what it registers",
			t.rel(cp.Path), strings.Join(needs.OtherExtensions(exts), ", ")))
	case len(needs.OtherExtensions(exts)) > 0:
		why = append(why, fmt.Sprintf("the project loads extensions seg does not read (%s): need types one of them defines (from a metamodel, say) are unknown to seg",
			strings.Join(needs.OtherExtensions(exts), ", ")))
	}
	why = append(why, "write the need types to a ubproject.toml (sphinx-needs reads it with needs_from_toml; if your build generates it, generate it before running seg, or commit it) and name it in seg.toml's [needs] config")
	d.Detail = strings.Join(why, "; ") + "."
	if cp.Path != "" && cp.Line > 0 {
		if sp, ok := t.fileLine(fset, cp.Path, cp.Line); ok {
			d.Span = sp
		}
	}
	return d
}

// rel is a path on disk relative to the root, with forward slashes.
func (t *Tree) rel(p string) string {
	if r, err := filepath.Rel(t.Root, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(p)
}

// fileLine is the start of line n of a file outside the tree's .rst
// files (conf.py), which joins the file set for it.
func (t *Tree) fileLine(fset *source.FileSet, p string, n int) (source.Span, bool) {
	data, err := cfgfile.Read(p)
	if err != nil {
		return source.Span{}, false
	}
	f := fset.Add(t.rel(p), len(data), source.Newlines)
	f.SetSource(data, true)
	lines := f.Lines()
	if n < 1 || n > len(lines) {
		return source.Span{}, false
	}
	return source.At(f.Pos(int(lines[n-1]))), true
}

// Suppressed is a diagnostic the project's suppress_warnings silences, and
// the entry that does.
type Suppressed struct {
	diag.Diagnostic
	// By is what suppresses it: a suppress_warnings entry, or where a
	// seg suppression is written ("file:line", ignore.go).
	By string
	// Reason is a seg suppression's reason ("" for suppress_warnings).
	Reason string
	// InSource is set when a comment in the tree suppresses it.
	InSource bool
}

// suppressedBy maps sphinx-needs' warning types onto the codes of seg's
// diagnostics that report the same thing ("needs" is every one of them).
// Only a warning about a need is silenced, and only its report: the
// verdicts are what they are, and errors always stay.
var suppressedBy = map[string][]string{
	"needs.link_outgoing":      {"unresolved-link", "malformed-link"},
	"needs.duplicate_id":       {"duplicate-id"},
	"needs.needextend":         {"needextend-no-target", "invalid-needextend"},
	"needs.filter":             {"invalid-filter"},
	"needs.dynamic_function":   {"invalid-dynamic-function"},
	"needs.needimport":         {"invalid-needimport"},
	"needs.load_external_need": {"invalid-external-needs"},
	"needs.directive":          {"unknown-option"},
	"needs.create_need":        {"missing-id", "invalid-id", "invalid-need-option"},
}

// silencedErrors are the errors suppress_warnings may silence: a dead
// link of a need (needs.link_outgoing), which sphinx-needs then accepts
// without a word. It makes no edge, so it proves nothing: a requirement
// that counted on it stays unproven, and that verdict is never silenced.
var silencedErrors = map[string]bool{"unresolved-link": true}

// suppress moves the diagnostics the project's suppress_warnings silences
// into c.Suppressed.
func (c *Check) suppress(p *needs.Project) {
	if p == nil || len(p.Suppress) == 0 {
		return
	}
	by := map[string]string{} // code -> entry
	if slices.Contains(p.Suppress, "needs") {
		for _, codes := range suppressedBy {
			for _, code := range codes {
				by[code] = "needs"
			}
		}
	}
	for _, s := range p.Suppress {
		for _, code := range suppressedBy[s] {
			by[code] = s
		}
	}
	if len(by) == 0 {
		return
	}
	about := c.needLines(p)
	kept := c.Diagnostics[:0:0]
	for _, d := range c.Diagnostics {
		entry, ok := by[d.Code.Name]
		pos := c.Files.Position(d.Span.Start)
		// An error is never silenced: a duplicate ID or a dropped need
		// would otherwise leave a green check over a trace that does not
		// hold. A dead link is the one exception (silencedErrors).
		if ok && (d.Severity() != diag.Error || silencedErrors[d.Code.Name]) && about[fileLine{c.Files.File(d.Span.Start), pos.Line}] {
			c.Suppressed = append(c.Suppressed, Suppressed{Diagnostic: d, By: entry})
			continue
		}
		kept = append(kept, d)
	}
	c.Diagnostics = kept
}

type fileLine struct {
	f    *source.File
	line int
}

// needLines are the lines of the tree that belong to a need: its
// directive's, its options' and its link entries'.
func (c *Check) needLines(p *needs.Project) map[fileLine]bool {
	out := map[fileLine]bool{}
	add := func(pos source.Pos) {
		if pos.IsValid() {
			out[fileLine{c.Files.File(pos), c.Files.Position(pos).Line}] = true
		}
	}
	for _, f := range c.Parsed {
		for i := range f.Nodes {
			n := &f.Nodes[i]
			if p.Type(n.Directive) == nil && !(n.Kind == parser.Instruction) {
				continue
			}
			add(n.Pos)
			for _, o := range n.Options {
				add(o.Pos)
				add(o.ValuePos)
				for _, l := range o.Links {
					add(l.Span.Start)
				}
			}
		}
	}
	return out
}

// count is "1 thing" or "n things".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
