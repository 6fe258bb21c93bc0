package parser

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/seg-trace/seg/source"
)

// sphinx-needs projects (docs/sphinx-needs.md). When the configuration
// names one (Config.Needs), every need type of the project is a directive
// that makes a node, and such a node takes sphinx-needs' options instead of
// its kind's: :id:, sphinx-needs' own options, the project's extra options
// and every link type of the project, whose values are read as
// sphinx-needs 8 reads them (needLinks).

// NeedType is one need type of a sphinx-needs project.
type NeedType struct {
	// Directive is the lower-cased directive name; it is also the need's
	// "type" in needs.json.
	Directive string
	// Title is the human-readable name ("type_name" in needs.json).
	Title  string
	Prefix string
	Color  string
	Style  string
	// Kind is the seg kind seg.toml maps the type onto, or Need.
	Kind Kind
}

// LinkType is one link option of a sphinx-needs project.
type LinkType struct {
	// Option is the lower-cased option name ("links", "blocks", ...); the
	// back links are "<Option>_back" in needs.json.
	Option string
	// Incoming and Outgoing are the titles of the two directions.
	Incoming, Outgoing string
	// Copy: the option's targets are also copied into "links".
	Copy bool
	// AllowDead: a target that is not defined is no error.
	AllowDead bool
	// Edge is the seg link option seg.toml maps this one onto
	// ("refines", "verifies" or "implements"), or "".
	Edge string
}

// Needs is a sphinx-needs project as seg reads it. Build it with
// NewNeeds and the Add methods before parsing; the parser only reads it.
type Needs struct {
	// Types and Links are in the project's order; Links starts with
	// sphinx-needs' own "links" and "parent_needs" unless the project
	// redefines them.
	Types []*NeedType
	Links []*LinkType
	// Extra lists the project's extra options (fields), in order.
	Extra []string
	// IDRequired: when false, a need without :id: is no error (sphinx-needs
	// generates an ID for it); seg leaves such a need out of the graph.
	IDRequired bool
	// IDPattern is what a need's ID must match (the project's id_regex);
	// nil means Config.IDPattern, which seg's own nodes always use.
	IDPattern *regexp.Regexp
	// Project and Version name the project and its version in needs.json.
	Project, Version string
	// DocRoot is the folder, relative to the tree's root (forward
	// slashes, "" for the root itself), that needs.json docnames are
	// relative to: the folder of the project's ubproject.toml.
	DocRoot string

	types   map[string]*NeedType
	links   map[string]*LinkType
	options map[string]bool // every option a need takes, links included
}

// NeedOptions are the options sphinx-needs itself gives every need
// besides its link types (":id:" included).
var NeedOptions = []string{
	"id", "status", "tags", "collapse", "delete", "jinja_content", "hide",
	"title_from_content", "style", "layout", "template", "pre_template",
	"post_template", "constraints", "constraints_passed",
	"constraints_results", "duration", "completion",
}

// DefaultNeedTypes are sphinx-needs' need types when the project
// defines none.
func DefaultNeedTypes() []NeedType {
	return []NeedType{
		{Directive: "req", Title: "Requirement", Prefix: "R_", Color: "#BFD8D2", Style: "node", Kind: Need},
		{Directive: "spec", Title: "Specification", Prefix: "S_", Color: "#FEDCD2", Style: "node", Kind: Need},
		{Directive: "impl", Title: "Implementation", Prefix: "I_", Color: "#DF744A", Style: "node", Kind: Need},
		{Directive: "test", Title: "Test Case", Prefix: "T_", Color: "#DCB239", Style: "node", Kind: Need},
	}
}

// DefaultNeedsIDPattern is sphinx-needs' id_regex when the project sets
// none. sphinx-needs matches it at the start of the ID only (Python's
// re.match), as the leading "^" does here.
const DefaultNeedsIDPattern = `^[A-Z0-9_]{5,}`

// NewNeeds returns a project with sphinx-needs' two built-in link types
// and no need type.
func NewNeeds() *Needs {
	n := &Needs{types: map[string]*NeedType{}, links: map[string]*LinkType{}, options: map[string]bool{}}
	for _, o := range NeedOptions[1:] { // ":id:" is every node's
		n.options[o] = true
	}
	n.AddLink(LinkType{Option: "links", Incoming: "links incoming", Outgoing: "links outgoing"})
	n.AddLink(LinkType{Option: "parent_needs", Incoming: "child needs", Outgoing: "parent needs"})
	return n
}

// AddType adds (or replaces) a need type.
func (n *Needs) AddType(t NeedType) *NeedType {
	t.Directive = strings.ToLower(t.Directive)
	if t.Kind == 0 {
		t.Kind = Need
	}
	if old := n.types[t.Directive]; old != nil {
		*old = t
		return old
	}
	p := &t
	n.Types = append(n.Types, p)
	n.types[t.Directive] = p
	return p
}

// AddLink adds (or replaces) a link type.
func (n *Needs) AddLink(l LinkType) *LinkType {
	l.Option = strings.ToLower(l.Option)
	n.options[l.Option] = true
	if old := n.links[l.Option]; old != nil {
		*old = l
		return old
	}
	p := &l
	n.Links = append(n.Links, p)
	n.links[l.Option] = p
	return p
}

// AddOption adds an extra option (field) every need takes.
func (n *Needs) AddOption(name string) {
	name = strings.ToLower(name)
	if !n.options[name] {
		n.Extra = append(n.Extra, name)
	}
	n.options[name] = true
}

// Type returns the need type of a lower-cased directive name, or nil.
// It is safe on a nil *Needs.
func (n *Needs) Type(directive string) *NeedType {
	if n == nil {
		return nil
	}
	return n.types[directive]
}

// Link returns the link type of a lower-cased option name, or nil.
func (n *Needs) Link(option string) *LinkType {
	if n == nil {
		return nil
	}
	return n.links[option]
}

// Takes reports whether a need takes the (lower-cased) option.
func (n *Needs) Takes(option string) bool {
	return n != nil && (option == "id" || n.options[option])
}

// IsDynamic reports whether a link entry is a sphinx-needs dynamic
// function ("[[copy('id')]]") or variant function ("<<...>>"): its target
// is only known to a Sphinx build, so it is kept unresolved, by design.
func (l *Link) IsDynamic() bool {
	return strings.HasPrefix(l.ID, "[[") || strings.HasPrefix(l.ID, "<<")
}

// Address is the entry as sphinx-needs writes it in needs.json: the ID,
// and ".part" when a part is named.
func (l *Link) Address() string {
	if l.Part != "" {
		return l.ID + "." + l.Part
	}
	return l.ID
}

// flatten joins a value's source segments (one per line) with line ends,
// and maps each byte of the result back to its source offset.
func (b *builder) flatten(segs [][2]int) (val []byte, at func(int) int) {
	src := b.s.src
	if len(segs) == 1 {
		base := segs[0][0]
		return src[segs[0][0]:segs[0][1]], func(i int) int { return base + i }
	}
	var offs []int
	for k, sg := range segs {
		if k > 0 {
			val = append(val, '\n')
			offs = append(offs, segs[k-1][1])
		}
		for o := sg[0]; o < sg[1]; o++ {
			val = append(val, src[o])
			offs = append(offs, o)
		}
	}
	offs = append(offs, segs[len(segs)-1][1])
	return val, func(i int) int { return offs[i] }
}

// needLinks splits the value of a sphinx-needs link option into entries,
// as sphinx-needs 8 does (docs/sphinx-needs.md, "Link values"):
//
//   - entries are separated by ",", ";" or "|"; white space and line
//     breaks around them are ignored, empty entries skipped;
//   - an entry that starts with "[[" (a dynamic function) or "<<" (a
//     variant function) runs to the matching "]]" or ">>" and the next
//     separator after it, separators inside included; it is kept whole;
//   - otherwise the entry is an address, ID or ID.part (split at the first
//     dot), optionally followed by a condition in brackets: n opening
//     brackets open it and the first run of at least n closing brackets
//     closes it (its last n brackets), so "ID[[a[0]]]" has the condition
//     "a[0]". Separators inside a condition do not split.
//
// On an option seg.toml maps onto verifies or implements, seg's own
// "ID (state)" suffix is read too. An unclosed bracket or text after a
// condition is the error malformed-link; the entry is still kept.
func (b *builder) needLinks(option string, lt *LinkType, segs [][2]int) []Link {
	val, at := b.flatten(segs)
	stateful := lt.Edge == "verifies" || lt.Edge == "implements"
	out := make([]Link, 0, 1+bytes.Count(val, []byte{','})+bytes.Count(val, []byte{';'})+bytes.Count(val, []byte{'|'}))
	n := len(val)
	span := func(a, z int) source.Span { return b.span(at(a), at(z-1)+1) }
	trim := func(a, z int) (int, int) {
		for a < z && isSpace(val[a]) {
			a++
		}
		for z > a && isSpace(val[z-1]) {
			z--
		}
		return a, z
	}
	toSep := func(i int) int {
		for i < n && !isSep(val[i]) {
			i++
		}
		return i
	}
	malformed := func(a, z int, why string) {
		d := b.diag(CodeMalformedLink, span(a, z), "malformed link entry %q in \":%s:\" (%s)", collapse(val[a:z]), option, why)
		d.Detail = "sphinx-needs does not accept this entry; seg reads the target ID before the bracket and ignores the rest."
	}
	for i := 0; i < n; {
		if isSpace(val[i]) || isSep(val[i]) {
			i++
			continue
		}
		start := i
		var l Link
		if bytes.HasPrefix(val[i:], []byte("[[")) || bytes.HasPrefix(val[i:], []byte("<<")) {
			closer := []byte("]]")
			if val[i] == '<' {
				closer = []byte(">>")
			}
			end := n
			if j := bytes.Index(val[i+2:], closer); j >= 0 {
				end = toSep(i + 2 + j + 2)
			} else {
				malformed(start, n, fmt.Sprintf("unclosed %q", val[i:i+2]))
			}
			a, z := trim(start, end)
			l.ID = collapse(val[a:z])
			l.Span = span(a, z)
			out = append(out, l)
			i = end
			continue
		}
		// The address: up to a separator or an opening bracket.
		j := i
		for j < n && !isSep(val[j]) && val[j] != '[' {
			j++
		}
		addrStart, addrEnd := trim(start, j)
		end := j
		stateStart, stateEnd := -1, -1
		if j < n && val[j] == '[' {
			depth := 0
			for j+depth < n && val[j+depth] == '[' {
				depth++
			}
			cs := j + depth
			ce, after := -1, n
			for k := cs; k < n; {
				if val[k] != ']' {
					k++
					continue
				}
				r := k
				for r < n && val[r] == ']' {
					r++
				}
				if r-k >= depth {
					ce, after = r-depth, r
					break
				}
				k = r
			}
			end = toSep(after)
			if ce < 0 {
				malformed(start, end, "unclosed \"[\"")
				l.Condition = collapse(bytes.TrimSpace(val[cs:end]))
			} else {
				l.Condition = collapse(bytes.TrimSpace(val[cs:ce]))
				if ta, tz := trim(after, end); ta < tz {
					if stateful && val[ta] == '(' && val[tz-1] == ')' {
						stateStart, stateEnd = ta, tz
					} else {
						malformed(start, tz, "text after the condition")
					}
				}
			}
		} else if stateful && addrEnd > addrStart && val[addrEnd-1] == ')' {
			if q := bytes.LastIndexByte(val[addrStart:addrEnd], '('); q > 0 {
				ie := addrStart + q
				stateStart, stateEnd = ie, addrEnd
				for ie > addrStart && isSpace(val[ie-1]) {
					ie--
				}
				addrEnd = ie
			}
		}
		a, z := trim(start, end)
		l.Span = span(a, z)
		if stateStart >= 0 {
			l.StateText = collapse(bytes.TrimSpace(val[stateStart+1 : stateEnd-1]))
			b.state(&l, lt.Edge, at(stateStart), at(stateEnd-1)+1)
		}
		addr := collapse(val[addrStart:addrEnd])
		if id, part, ok := strings.Cut(addr, "."); ok {
			l.ID, l.Part = id, part
		} else {
			l.ID = addr
		}
		if l.ID == "" {
			malformed(a, z, "no ID")
			i = end
			continue
		}
		out = append(out, l)
		i = end
	}
	return out
}

// idOptional reports whether the node being built may go without an ID:
// a need of a project whose id_required is false (sphinx-needs generates
// the ID; seg leaves the need out of the graph).
func (b *builder) idOptional() bool {
	return b.need != nil && !b.cfg.Needs.IDRequired
}

// Fingerprint is a canonical text of what of the project can change the
// parse of a file (for the parse cache's key): the need types and their
// kinds, the link types and the seg edges they map onto, the options and
// id_required. It is "" for a nil project.
func (n *Needs) Fingerprint() string {
	if n == nil {
		return ""
	}
	var parts []string
	for _, t := range n.Types {
		parts = append(parts, fmt.Sprintf("type %q %d", t.Directive, t.Kind))
	}
	for _, l := range n.Links {
		parts = append(parts, fmt.Sprintf("link %q %q", l.Option, l.Edge))
	}
	for o := range n.options {
		parts = append(parts, fmt.Sprintf("option %q", o))
	}
	sort.Strings(parts)
	pat := "<none>"
	if n.IDPattern != nil {
		pat = n.IDPattern.String()
	}
	return fmt.Sprintf("needs id_required=%v id_pattern=%q\n%s", n.IDRequired, pat, strings.Join(parts, "\n"))
}

// idPattern is the ID pattern of the node being built.
func (b *builder) idPattern() *regexp.Regexp {
	if b.need != nil && b.cfg.Needs.IDPattern != nil {
		return b.cfg.Needs.IDPattern
	}
	return b.cfg.IDPattern
}
