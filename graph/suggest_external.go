package graph

import (
	"strings"

	"github.com/seg-trace/seg/needs"
)

// A link into another project (a need of needs_external_needs) names an ID
// of that project's prefix family: a local ID of another family a few
// edits away is no suggestion for it, however close, and when that
// project's needs.json was not read every such suggestion would be wrong.

// family is the run of ASCII letters an ID starts with: "REQ" of
// "REQ_001", "SEG" of "SEG-SREQ-1", "" for "1-A".
func family(id string) string {
	i := 0
	for i < len(id) && (id[i] >= 'A' && id[i] <= 'Z' || id[i] >= 'a' && id[i] <= 'z') {
		i++
	}
	return id[:i]
}

// constraint is what a suggestion must share with the link: a prefix it
// starts with, and a family that is its own.
type constraint struct {
	prefix, family string
}

func (c constraint) allows(id string) bool {
	return strings.HasPrefix(id, c.prefix) && (c.family == "" || family(id) == c.family)
}

// families records, for each prefix family, whether a local node (1) and
// an external one (2) has it; made at the first lookup that needs it.
func (s *suggester) familyOf(f string) uint8 {
	if s.families == nil {
		s.families = map[string]uint8{}
		for _, n := range s.g.nodes {
			bit := uint8(1)
			if n.external {
				bit = 2
			}
			s.families[family(n.id)] |= bit
		}
	}
	return s.families[f]
}

// linkConstraint is the constraint on suggestions for a link to id in the
// project np. A link points into another project when it starts with an
// id_prefix of needs_external_needs (then a suggestion starts with it
// too), or when its family is one only external needs have, or one no node
// has while the project links to other projects (then a suggestion is of
// its family, so, in the last case, there is none).
func (s *suggester) linkConstraint(id string, np *needs.Project) constraint {
	if np == nil || len(np.External) == 0 {
		return constraint{}
	}
	var c constraint
	for _, e := range np.External {
		if e.IDPrefix != "" && strings.HasPrefix(id, e.IDPrefix) && len(e.IDPrefix) > len(c.prefix) {
			c.prefix = e.IDPrefix
		}
	}
	if c.prefix != "" {
		return c
	}
	f := family(id)
	if f == "" {
		return c
	}
	if has := s.familyOf(f); has&1 == 0 {
		c.family = f
	}
	return c
}
