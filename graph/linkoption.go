package graph

import "github.com/seg-trace/seg/parser"

// LinkOption says what a link option of seg's own directives means: the
// kind of node it is written on and the kinds of node its entries may
// name (a waiver's :excuses: names an outcome or a test specification).
// ok is false for an option that makes no edge. An editor offers only
// the IDs an option can take from it; Build reads the same table.
func LinkOption(name string) (from parser.Kind, targets []parser.Kind, ok bool) {
	s, ok := edgeSpec[name]
	if !ok {
		return 0, nil, false
	}
	targets = []parser.Kind{s.target}
	if s.also != 0 {
		targets = append(targets, s.also)
	}
	return s.from, targets, true
}
