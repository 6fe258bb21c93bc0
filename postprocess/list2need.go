package postprocess

import (
	"fmt"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/lazyre"
	"github.com/seg-trace/seg/needs/model"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// CodeInvalidList2need is the error of a list2need sphinx-needs refuses.
var CodeInvalidList2need = diag.NewError("invalid-list2need", "a list2need sphinx-needs refuses")

// list2need makes the needs of every list2need directive, as sphinx-needs
// does (its directive writes a need directive per list item and reads
// them): a "* " item at an indentation of 2·level spaces is a need of the
// level's type (:types:), its text up to the :delimiter: (default ".")
// the title and the rest the content, more lines its content; "(ID)" in
// the title is the ID (else the type's prefix and a hash of the title);
// "((key="value", ...))" sets options, as :meta-data: does for every item
// and :tags: adds tags; :links-down: links a need of a level to the needs
// right below it; presented nested (the default), a need is inside the
// one above it (its parent_needs). The needs are placed at the directive.
func (t *tree) list2need() {
	for fi := range t.files {
		for i := 0; i < len(t.files[fi].Nodes); i++ {
			if nd := &t.files[fi].Nodes[i]; nd.Kind == parser.Instruction && nd.Directive == "list2need" {
				t.oneList2need(fi, i)
			}
		}
	}
}

// sphinx-needs' expressions of list2need.
var (
	l2nItem    = lazyre.New(`^([^\S\n]*)\*\s*(.*)`)
	l2nMore    = lazyre.New(`^\S*(.*)`)
	l2nID      = lazyre.New(`\(([^"'=\n]+)?\)`)
	l2nOptArea = lazyre.New(`\(\((.*)\)\)`)
	l2nOption  = lazyre.New(`([^=,\s]*)=["']([^"]*)["']`)
	l2nMeta    = lazyre.New(`([^=,]+)=["']([^"']+)["']`)
)

type l2nNeed struct {
	title, id, typ, content string
	level                   int
	opts                    []l2nOpt
}

type l2nOpt struct{ name, value string }

func (n *l2nNeed) set(name, value string) {
	for i := range n.opts {
		if n.opts[i].name == name {
			n.opts[i].value = value
			return
		}
	}
	n.opts = append(n.opts, l2nOpt{name, value})
}

func (n *l2nNeed) get(name string) string {
	for _, o := range n.opts {
		if o.name == name {
			return o.value
		}
	}
	return ""
}

func (t *tree) oneList2need(fi, idx int) {
	ins := t.files[fi].Nodes[idx]
	p := t.in.Project
	at := source.At(ins.Pos)
	fail := func(format string, args ...any) {
		t.diag(diag.Diagnostic{Code: CodeInvalidList2need, Span: at, Message: "list2need: " + fmt.Sprintf(format, args...),
			Detail: "sphinx-needs stops the build here; seg makes no need of this list2need."})
	}
	for _, o := range ins.Options {
		switch o.Name {
		case "types", "delimiter", "presentation", "links-down", "tags", "hide", "meta-data":
		default:
			fail("no option :%s: (docutils refuses the directive)", o.Name)
			return
		}
	}
	presentation := optionValue(&ins, "presentation")
	if presentation == "" {
		presentation = "nested"
	}
	if presentation != "nested" && presentation != "standalone" {
		fail(":presentation: must be nested or standalone")
		return
	}
	delimiter := optionValue(&ins, "delimiter")
	if delimiter == "" {
		delimiter = "."
	}
	var types []string
	if v := optionValue(&ins, "types"); v != "" {
		for _, ty := range strings.Split(v, ",") {
			ty = strings.TrimSpace(ty)
			if p.Type(ty) == nil {
				fail("unknown need type %q", ty)
				return
			}
			types = append(types, ty)
		}
	}
	if len(types) == 0 {
		fail(":types: must be set")
		return
	}
	var down []string
	if v := optionValue(&ins, "links-down"); v != "" {
		for _, l := range strings.Split(v, ",") {
			l = strings.TrimSpace(l)
			if p.Link(l) == nil {
				fail("unknown link type %q", l)
				return
			}
			down = append(down, l)
		}
	}
	var list []*l2nNeed
	for _, line := range strings.Split(ins.Body, "\n") {
		if m := l2nItem.FindStringSubmatch(line); m != nil && m[2] != "" {
			if len(m[1])%2 != 0 {
				fail("the indentation of a list item must be a multiple of 2")
				return
			}
			level := len(m[1]) / 2
			if level >= len(types) {
				fail("no need type for the indentation level %d", level)
				return
			}
			if len(down) > 0 && level > len(down) {
				fail("not enough :links-down: for the indentation level %d", level)
				return
			}
			title, content, _ := strings.Cut(m[2], delimiter)
			n := &l2nNeed{typ: types[level], level: level, content: strings.TrimLeft(content, " \t")}
			if id := l2nID.FindStringSubmatch(title); id != nil {
				n.id = id[1]
				title = l2nID.ReplaceAllString(title, "")
			} else {
				n.id = model.HashedID(p.Type(types[level]).Prefix, title, "", p.IDLength, false)
			}
			n.title = title
			list = append(list, n)
			continue
		}
		if len(list) == 0 {
			continue // sphinx-needs fails on text before the first item; nothing to add to
		}
		more := strings.TrimLeft(l2nMore.FindStringSubmatch(line)[1], " \t")
		if strings.HasPrefix(more, ":") {
			more = "   " + more
		}
		list[len(list)-1].content += "\n   " + more
	}
	tags := optionValue(&ins, "tags")
	_, hide := optionOf(&ins, "hide")
	meta := optionValue(&ins, "meta-data")
	for _, n := range list {
		if m := l2nOptArea.FindStringSubmatch(n.title + n.content); m != nil {
			for _, o := range l2nOption.FindAllStringSubmatch(m[1], -1) {
				n.set(o[1], o[2])
			}
			n.title = l2nOptArea.ReplaceAllString(n.title, "")
			n.content = l2nOptArea.ReplaceAllString(n.content, "")
		}
		if tags != "" {
			if cur := n.get("tags"); cur != "" {
				n.set("tags", cur+","+tags)
			} else {
				n.set("tags", tags)
			}
		}
		if hide {
			n.set("hide", n.get("hide"))
		}
		for _, kv := range l2nMeta.FindAllStringSubmatch(meta, -1) {
			k := strings.TrimSpace(kv[1])
			if cur := n.get(k); cur != "" {
				n.set(k, cur+","+kv[2])
			} else {
				n.set(k, kv[2])
			}
		}
	}
	t.makeList2need(fi, idx, list, down, presentation == "nested")
}

// makeList2need adds the needs of one list2need to file fi, after its
// nodes, each nested in the need above it when nested.
func (t *tree) makeList2need(fi, idx int, list []*l2nNeed, down []string, nested bool) {
	if len(list) == 0 {
		return
	}
	ins := t.files[fi].Nodes[idx]
	p := t.in.Project
	t.editNode(fi, idx) // copies the file
	base := len(t.files[fi].Nodes)
	for i, n := range list {
		kind, known := t.in.Config.Directives[n.typ]
		if !known {
			kind = parser.Need
		}
		nd := parser.Node{Kind: kind, Directive: n.typ, ID: n.id, Title: strings.TrimSpace(n.title),
			Body: strings.TrimSpace(n.content), Pos: ins.Pos, Parent: ins.Parent}
		if nested {
			for j := i - 1; j >= 0; j-- {
				if list[j].level < n.level {
					nd.Parent = base + j
					break
				}
			}
		}
		for _, o := range n.opts {
			if !p.Takes(o.name) {
				t.diag(diag.Diagnostic{Code: CodeInvalidList2need, Span: source.At(ins.Pos),
					Message: fmt.Sprintf("list2need: need %q has no option :%s:", n.id, o.name),
					Detail:  "sphinx-needs refuses the need it writes; seg leaves the option out."})
				continue
			}
			nd.Options = append(nd.Options, t.list2needOption(o.name, o.value, ins.Pos))
		}
		if n.level < len(down) {
			var ids []string
			for _, m := range list[i+1:] {
				if m.level == n.level {
					break
				}
				if m.level == n.level+1 {
					ids = append(ids, m.id)
				}
			}
			if len(ids) > 0 {
				nd.Options = append(nd.Options, t.list2needOption(down[n.level], strings.Join(ids, ", "), ins.Pos))
			}
		}
		t.files[fi].Nodes = append(t.files[fi].Nodes, nd)
	}
}

// list2needOption is an option of a need list2need writes, at pos: a
// link option's value split as the link syntax splits it.
func (t *tree) list2needOption(name, value string, pos source.Pos) parser.Option {
	o := parser.Option{Name: name, Value: value, Pos: pos, ValuePos: pos}
	if lt := t.in.Project.Link(name); lt != nil {
		entries, _ := model.SplitLinks([]byte(value), name, lt)
		for _, e := range entries {
			if e.ID != "" {
				o.Links = append(o.Links, parser.Link{ID: e.ID, Part: e.Part, Condition: e.Condition, Span: source.At(pos)})
			}
		}
	}
	return o
}

func optionOf(nd *parser.Node, name string) (string, bool) {
	if o := nd.Option(name); o != nil {
		return o.Value, true
	}
	return "", false
}
