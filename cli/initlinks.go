package cli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/config"
	"github.com/seg-trace/seg/needs"
)

// guessLinkByName maps a link option onto seg's edges by its name:
// sphinx-needs' generic "links" by the kinds at its ends ("auto"); the
// usual names of "this refines, verifies or implements what it names"
// onto that edge; and the usual names of the other direction ("this is
// satisfied by what it names") onto the edge from the need named.
func guessLinkByName(option string) (needs.LinkMap, bool) {
	switch strings.ToLower(option) {
	case "links":
		return needs.LinkMap{Auto: true}, true
	case "satisfied_by", "implemented_by", "realized_by", "realised_by", "fulfilled_by":
		return needs.LinkMap{Edge: "implements", Reverse: true}, true
	case "verified_by", "tested_by", "validated_by":
		return needs.LinkMap{Edge: "verifies", Reverse: true}, true
	case "refined_by", "derived_by":
		return needs.LinkMap{Edge: "refines", Reverse: true}, true
	}
	if e := guessEdge(option); e != "" {
		return needs.LinkMap{Edge: e}, true
	}
	return needs.LinkMap{}, false
}

// edgeKinds are the kinds at the two ends of each seg edge a link type
// may map onto.
var edgeKinds = map[string][2]string{
	"refines":    {"requirement", "requirement"},
	"verifies":   {"test", "requirement"},
	"implements": {"implementation", "requirement"},
}

// linkUses counts, for each link option of the project, the entries of
// the tree's needs by the kinds guessed for the types at their two ends
// ("test→requirement"); entries whose ends have no guessed kind, or that
// name nothing, are not counted. A tree seg cannot parse gives nothing.
func linkUses(root string, cfg *config.Config, kinds map[string]string) map[string]map[[2]string]int {
	files, _, err := check.ParseTree(root, cfg)
	if err != nil {
		return nil
	}
	kindOf := map[string]string{}
	for _, f := range files {
		for i := range f.Nodes {
			n := &f.Nodes[i]
			if k := kinds[n.Directive]; k != "" && n.ID != "" {
				if _, dup := kindOf[n.ID]; !dup {
					kindOf[n.ID] = k
				}
			}
		}
	}
	uses := map[string]map[[2]string]int{}
	for _, f := range files {
		for i := range f.Nodes {
			n := &f.Nodes[i]
			from := kinds[n.Directive]
			if from == "" {
				continue
			}
			for _, o := range n.Options {
				if cfg.Needs.Link(o.Name) == nil {
					continue
				}
				for _, l := range o.Links {
					if to := kindOf[l.ID]; to != "" {
						if uses[o.Name] == nil {
							uses[o.Name] = map[[2]string]int{}
						}
						uses[o.Name][[2]string{from, to}]++
					}
				}
			}
		}
	}
	return uses
}

// guessLinkByUse maps a link option by the kinds its entries join in the
// tree: onto the one edge they all fit, onto its reverse when they all
// fit that, else onto "auto" when most of them fit some edge. why says
// what was seen.
func guessLinkByUse(pairs map[[2]string]int) (m needs.LinkMap, why string, ok bool) {
	total := 0
	forward, backward := map[string]int{}, map[string]int{}
	for p, n := range pairs {
		total += n
		for e, k := range edgeKinds {
			if p == k {
				forward[e] += n
			}
			if p == [2]string{k[1], k[0]} && k[0] != k[1] {
				backward[e] += n
			}
		}
	}
	if total == 0 {
		return m, "", false
	}
	var seen []string
	for p, n := range pairs {
		seen = append(seen, fmt.Sprintf("%s→%s %d", p[0], p[1], n))
	}
	sort.Strings(seen)
	why = fmt.Sprintf("guessed from its use in the tree (%s)", strings.Join(seen, ", "))
	fits := 0
	for _, n := range forward {
		fits += n
	}
	for _, e := range []string{"refines", "verifies", "implements"} {
		switch {
		case forward[e] == total:
			return needs.LinkMap{Edge: e}, why, true
		case backward[e] == total:
			return needs.LinkMap{Edge: e, Reverse: true}, why, true
		}
	}
	if 2*fits > total {
		return needs.LinkMap{Auto: true}, why, true
	}
	return m, "", false
}

// guessLinks guesses the mapping of every link type of the plan's
// project, by name first, else by the link's use in the tree.
func (p *needsPlan) guessLinks(root string, cfg *config.Config) {
	kinds := map[string]string{}
	for _, g := range p.types {
		if g.onto != "" {
			kinds[g.name] = g.onto
		}
	}
	var uses map[string]map[[2]string]int
	for _, l := range cfg.Needs.Links {
		g := guess{name: l.Option}
		if m, ok := guessLinkByName(l.Option); ok {
			g.onto, g.value = m.String(), m.String()
		} else {
			if uses == nil {
				uses = linkUses(root, cfg, kinds)
			}
			if m, why, ok := guessLinkByUse(uses[l.Option]); ok {
				g.onto, g.value, g.why = m.String(), m.String(), why
			}
		}
		if g.onto != "" {
			p.linksMapped++
		}
		p.links = append(p.links, g)
	}
}
