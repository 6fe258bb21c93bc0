package metamodel

import (
	"github.com/seg-trace/seg/internal/lazyre"
	"github.com/seg-trace/seg/needs"
)

// scoreIDPattern is the needs_id_regex S-CORE's extension sets when the
// project sets none (it sets needs_id_required too).
var scoreIDPattern = lazyre.New(`^[A-Za-z0-9_-]{6,}`)

// Apply lays the metamodel's types, links and options into the project,
// as S-CORE's extension gives them to sphinx-needs: sphinx-needs' default
// types are dropped when the project has only those; each type of
// needs_types is a need type, a requirement when it is tagged
// "requirement" (a node of seg's kind "need" otherwise); each link type of
// needs_extra_links is a link type, derived_from a refinement (the child
// refines the parent); every option a type names is an extra option; IDs
// are required. seg.toml's [needs.types] and [needs.links], applied after,
// override any of it (docs/score.md).
func (m *Metamodel) Apply(n *needs.Project) {
	n.ClearDefaultTypes()
	for _, t := range m.Types {
		kind := ""
		if t.HasTag("requirement") {
			kind = "requirement"
		}
		n.AddType(needs.NeedType{Directive: t.Directive, Title: t.Title, Prefix: t.Prefix, Color: t.Color, Style: t.Style, Kind: kind})
	}
	for _, l := range m.Links {
		lt := n.AddLink(needs.LinkType{Option: l.Option, Incoming: l.Incoming, Outgoing: l.Outgoing})
		if l.Option == "derived_from" {
			lt.Edge = "refines"
		}
	}
	for _, t := range m.Types {
		for _, list := range [][]*Option{t.Mandatory, t.Optional} {
			for _, o := range list {
				if o.Name != "content" && o.Name != "title" && !n.Takes(o.Name) {
					n.AddOption(o.Name)
				}
			}
		}
	}
	if !n.IDRequiredSet {
		n.IDRequired = true
	}
	if !n.IDPatternSet {
		n.IDPattern = scoreIDPattern.Get()
	}
}
