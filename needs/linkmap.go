package needs

import (
	"fmt"
	"slices"
	"strings"
)

// LinkMap is one entry of seg.toml's [needs.links] (docs/sphinx-needs.md,
// "Mapping link types"): what a link option of the project makes in
// seg's graph. It is written as
//
//   - an edge name, "refines", "verifies" or "implements": an entry
//     makes that edge from the need it is written on to the need it
//     names, when their kinds are the edge's;
//   - "auto": the edge the kinds at the two ends call for (a test naming
//     a requirement verifies it, an implementation implements it, a
//     requirement refines it), none between other kinds;
//   - a list of edge names: the first of them whose kinds fit the two
//     ends, chosen by the kind of the need named;
//   - a table { edge = "implements", reverse = true }: the need named
//     makes the edge to the need the entry is written on (a
//     requirement's :satisfied_by: names what implements it).
type LinkMap struct {
	Edge    string
	Auto    bool
	Reverse bool
	Edges   []string
}

// UnmarshalTOML reads an entry in any of its forms (toml.Unmarshaler).
func (m *LinkMap) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case string:
		if x == "auto" {
			m.Auto = true
			return nil
		}
		m.Edge = x
		return nil
	case []any:
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return fmt.Errorf("a list of edges holds edge names, not %v", e)
			}
			m.Edges = append(m.Edges, s)
		}
		if len(m.Edges) == 0 {
			return fmt.Errorf("an empty list of edges")
		}
		return nil
	case map[string]any:
		for k, val := range x {
			switch k {
			case "edge":
				s, ok := val.(string)
				if !ok {
					return fmt.Errorf("edge must be an edge name, not %v", val)
				}
				m.Edge = s
			case "reverse":
				b, ok := val.(bool)
				if !ok {
					return fmt.Errorf("reverse must be true or false, not %v", val)
				}
				m.Reverse = b
			default:
				return fmt.Errorf("unknown key %q (a table holds edge and reverse)", k)
			}
		}
		if m.Edge == "" {
			return fmt.Errorf("a table needs edge = \"refines\", \"verifies\" or \"implements\"")
		}
		return nil
	}
	return fmt.Errorf("want an edge name, \"auto\", a list of edge names or { edge = ..., reverse = true }, not %v", v)
}

// String is the entry as seg.toml would write it.
func (m LinkMap) String() string {
	switch {
	case m.Auto:
		return `"auto"`
	case len(m.Edges) > 0:
		q := make([]string, len(m.Edges))
		for i, e := range m.Edges {
			q[i] = fmt.Sprintf("%q", e)
		}
		return "[" + strings.Join(q, ", ") + "]"
	case m.Reverse:
		return fmt.Sprintf("{ edge = %q, reverse = true }", m.Edge)
	}
	return fmt.Sprintf("%q", m.Edge)
}

// check refuses an entry that names an edge a link type cannot map onto.
func (m LinkMap) check() error {
	for _, e := range append([]string{m.Edge}, m.Edges...) {
		if e != "" && !needEdges[e] {
			return fmt.Errorf("a link type maps onto refines, verifies or implements (or \"auto\", a list of edges, { edge = ..., reverse = true }), not %q", e)
		}
	}
	return nil
}

// apply sets the mapping on l.
func (m LinkMap) apply(l *LinkType) {
	l.Edge, l.Auto, l.Reverse, l.Edges = m.Edge, m.Auto, m.Reverse, slices.Clone(m.Edges)
}

// Mapping is a link type's mapping as seg.toml writes it, "" when
// unmapped.
func Mapping(l *LinkType) string {
	if !l.Mapped() {
		return ""
	}
	return LinkMap{Edge: l.Edge, Auto: l.Auto, Reverse: l.Reverse, Edges: l.Edges}.String()
}

// HasReverse reports whether any link type of the project is mapped in
// reverse.
func (p *Project) HasReverse() bool {
	if p == nil {
		return false
	}
	for _, l := range p.Links {
		if l.Reverse {
			return true
		}
	}
	return false
}
