package parser

import (
	"regexp"

	"github.com/seg-trace/seg/needs/model"
	"github.com/seg-trace/seg/source"
)

// sphinx-needs projects (docs/sphinx-needs.md). When the configuration
// names one (Config.Needs: the project's tables, all package needs hands
// the parser of the project it read), every need type of the project is
// a directive that makes a node, and such a node takes sphinx-needs'
// options instead of its kind's: :id:, sphinx-needs' own options, the
// project's extra options and every link type of the project, whose
// values package model splits (model.SplitLinks): the parser only places
// each entry in the source.

// UseNeeds makes the configuration read the tree as the sphinx-needs
// project whose tables are p (a needs.Project's Tables): every need type
// becomes a directive that makes a node (of the seg kind seg.toml maps it
// onto, else Need), and the directives that make needs from elsewhere
// hold no node.
func (c *Config) UseNeeds(p *model.Tables) {
	for _, t := range p.Types {
		k, ok := KindByName(t.Kind)
		if !ok {
			k = Need
		}
		c.Directives[t.Directive] = k
	}
	// needextend, needimport and list2need say something about needs:
	// the parser reads them as instructions (the first two take no
	// content; list2need's is kept as it is). needservice and
	// needreport take none that is RST: nothing inside them is a node.
	c.Directives["needextend"] = Instruction
	c.Directives["needimport"] = Instruction
	// list2need makes needs of the list it holds (postprocess).
	c.Directives["list2need"] = Instruction
	for _, d := range []string{"needservice", "needreport"} {
		c.Literal[d] = true
	}
	c.Needs = p
}

// IsDynamic reports whether a link entry is a sphinx-needs dynamic
// function ("[[copy('id')]]") or variant function ("<<...>>"): its target
// is only known to a Sphinx build, so it is kept unresolved, by design.
func (l *Link) IsDynamic() bool { return model.IsFunction(l.ID) }

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
func (b *builder) flatten(segs [][2]int) (val []byte, at offsets) {
	src := b.s.src
	if len(segs) == 1 {
		return src[segs[0][0]:segs[0][1]], offsets{base: segs[0][0]}
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
	return val, offsets{offs: offs}
}

// offsets maps an index of a flattened value to its offset in the
// source: base+i for a value on one line (a func value would cost an
// allocation on every link option), else offs[i].
type offsets struct {
	base int
	offs []int
}

func (o offsets) at(i int) int {
	if o.offs == nil {
		return o.base + i
	}
	return o.offs[i]
}

// needLinks reads the entries of a sphinx-needs link option: package model
// splits the value, and each entry, its state and each malformed entry get
// their exact span in the source.
func (b *builder) needLinks(option string, lt *model.LinkType, segs [][2]int) []Link {
	val, off := b.flatten(segs)
	span := func(a, z int) source.Span { return b.span(off.at(a), off.at(z-1)+1) }
	entries, problems := model.SplitLinks(val, option, lt)
	for _, p := range problems {
		b.broken = true
		b.f.Diagnostics = append(b.f.Diagnostics, p.Diagnostic(span(p.Start, p.End)))
	}
	out := make([]Link, 0, len(entries))
	for _, e := range entries {
		l := Link{ID: e.ID, Part: e.Part, Condition: e.Condition, Span: span(e.Start, e.End)}
		if e.StateStart >= 0 {
			l.StateText = e.StateText
			b.state(&l, lt.StateOption(), off.at(e.StateStart), off.at(e.StateEnd-1)+1)
		}
		if l.ID != "" {
			out = append(out, l)
		}
	}
	return out
}

// idOptional reports whether the node being built may go without an ID:
// a need of a project whose id_required is false (sphinx-needs generates
// the ID; seg leaves the need out of the graph).
func (b *builder) idOptional() bool {
	return b.need != nil && !b.cfg.Needs.IDRequired
}

// idPattern is the ID pattern of the node being built.
func (b *builder) idPattern() *regexp.Regexp {
	if b.need != nil && b.cfg.Needs.IDPattern != nil {
		return b.cfg.Needs.IDPattern
	}
	return b.cfg.IDPattern
}

// needTitleAndID completes a need as sphinx-needs does before it stores
// it: a need without a title takes the first sentence of its content when
// title_from_content is set (on the need or for the project), trimmed to
// max_title_length; a need without :id:, where the project does not
// require one, gets the ID sphinx-needs generates from its type's prefix
// and a hash of its title (or, without a title, of its content).
func (b *builder) needTitleAndID(nd *Node, content string) {
	p := b.cfg.Needs
	fullTitle := nd.Title
	if nd.Title == "" {
		fromContent := p.TitleFromContent
		if o := nd.Option("title_from_content"); o != nil {
			if v, ok := model.Boolean(o.Value); ok {
				fromContent = v
			}
		}
		if fromContent {
			fullTitle = model.FirstSentence(content)
			nd.Title = model.TrimTitle(fullTitle, p.MaxTitleLength)
		}
	}
	if nd.Option("id") == nil && !p.IDRequired {
		nd.ID = model.HashedID(b.need.Prefix, fullTitle, content, p.IDLength, p.IDFromTitle)
	}
}
