package gen_test

import (
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/seg-trace/seg/bench/gen"
)

// A scanner for the generated trees, written from the format spec and not
// from the generator, to check what the generator claims. It reads only
// what the generator writes: directive lines, field-list options before the
// first blank line, continuation lines indented deeper than their field.

var kinds = map[string]string{
	"sys": "requirement", "req": "requirement", "sreq": "requirement",
	"test": "test", "impl": "impl", "outcome": "outcome", "waiver": "waiver",
}

// options of each kind: true for link options, with the target kind.
var optionsOf = map[string]map[string]string{
	"requirement": {"refines": "requirement"},
	"test":        {"verifies": "requirement", "cases": ""},
	"impl":        {"implements": "requirement", "source": ""},
	"outcome":     {"confirms": "test", "witnesses": "impl", "result": "", "config": ""},
	"waiver":      {"excuses": "outcome", "expires": ""},
}

type entry struct {
	id, state string
	line      int
}

type node struct {
	kind, id, file string
	line, indent   int
	parent         string
	opts           map[string][]entry // every option; link values split
	optLine        map[string]int
	problems       []gen.Defect
}

var (
	directiveRx = regexp.MustCompile(`^( *)\.\. ([A-Za-z]+)::(?: (.*))?$`)
	optionRx    = regexp.MustCompile(`^( *):([^:\s][^:]*):(?: (.*))?$`)
	entryRx     = regexp.MustCompile(`^(\S+)(?: \(([a-z]+)\))?$`)
	splitRx     = regexp.MustCompile(`[,;|]`)
)

func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

func scan(t *testing.T, fs map[string][]byte) []*node {
	t.Helper()
	paths := make([]string, 0, len(fs))
	for p := range fs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var nodes []*node
	for _, p := range paths {
		lines := strings.Split(string(fs[p]), "\n")
		var open []*node
		for i := 0; i < len(lines); i++ {
			l := lines[i]
			if strings.TrimSpace(l) == "" {
				continue
			}
			ind := indentOf(l)
			for len(open) > 0 && open[len(open)-1].indent >= ind {
				open = open[:len(open)-1]
			}
			m := directiveRx.FindStringSubmatch(l)
			if m == nil || kinds[strings.ToLower(m[2])] == "" {
				continue
			}
			n := &node{kind: kinds[strings.ToLower(m[2])], file: p, line: i + 1, indent: ind,
				opts: map[string][]entry{}, optLine: map[string]int{}}
			if len(open) > 0 {
				n.parent = open[len(open)-1].id
			}
			optInd := -1
			var cur string
			for i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" {
				i++
				l := lines[i]
				li := indentOf(l)
				if li <= ind {
					t.Fatalf("%s:%d: directive block ends without a blank line", p, i+1)
				}
				if om := optionRx.FindStringSubmatch(l); om != nil && (optInd < 0 || li == optInd) {
					optInd = li
					cur = om[2]
					if _, dup := n.optLine[cur]; dup {
						n.problems = append(n.problems, gen.Defect{Code: "duplicate-option", File: p, Line: i + 1})
					}
					n.optLine[cur] = i + 1
					n.add(cur, om[3], i+1)
					continue
				}
				if cur == "" || li <= optInd {
					if optInd >= 0 {
						t.Fatalf("%s:%d: line in an option block that is no option", p, i+1)
					}
					continue // the title goes on
				}
				n.add(cur, strings.TrimSpace(l), i+1)
			}
			if ids := n.opts["id"]; len(ids) == 1 {
				n.id = ids[0].id
			}
			open = append(open, n)
			nodes = append(nodes, n)
		}
	}
	return nodes
}

// add adds one physical line of an option's value.
func (n *node) add(name, value string, line int) {
	target, known := optionsOf[n.kind][name]
	if !known || target == "" {
		if prev := n.opts[name]; len(prev) > 0 {
			n.opts[name][0].id += " " + value
			return
		}
		n.opts[name] = []entry{{id: value, line: line}}
		return
	}
	if _, ok := n.opts[name]; !ok {
		n.opts[name] = []entry{}
	}
	for _, part := range splitRx.Split(value, -1) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		m := entryRx.FindStringSubmatch(part)
		if m == nil {
			n.problems = append(n.problems, gen.Defect{Code: "malformed-link", File: n.file, Line: line, What: part})
			continue
		}
		n.opts[name] = append(n.opts[name], entry{id: m[1], state: m[2], line: line})
	}
}

// check returns every problem seg should report as an error.
func check(nodes []*node) []gen.Defect {
	var out []gen.Defect
	byID := map[string][]*node{}
	for _, n := range nodes {
		out = append(out, n.problems...)
		prob := func(code string, line int, what string) {
			out = append(out, gen.Defect{Code: code, File: n.file, Line: line, ID: n.id, What: what})
		}
		if n.id == "" {
			prob("missing-id", n.line, "")
			continue
		}
		byID[n.id] = append(byID[n.id], n)
		for name, es := range n.opts {
			if name == "id" {
				continue
			}
			if _, known := optionsOf[n.kind][name]; !known {
				prob("unknown-option", n.optLine[name], name)
				continue
			}
			for _, e := range es {
				switch {
				case e.state == "":
				case name != "verifies" && name != "implements":
					prob("state-not-allowed", e.line, e.state)
				case e.state != "active" && e.state != "suspect" && e.state != "retired":
					prob("invalid-state", e.line, e.state)
				}
			}
			switch name {
			case "result":
				if r := es[0].id; r != "passed" && r != "failed" && r != "skipped" && r != "error" {
					prob("invalid-result", n.optLine[name], r)
				}
			case "expires":
				if _, err := time.Parse("2006-01-02", es[0].id); err != nil {
					prob("invalid-date", n.optLine[name], es[0].id)
				}
			}
		}
		for _, must := range map[string][]string{"outcome": {"confirms", "result"}, "waiver": {"excuses"}}[n.kind] {
			if len(n.opts[must]) == 0 {
				prob("missing-option", n.line, must)
			}
		}
	}
	for id, ns := range byID {
		if len(ns) > 1 {
			for _, n := range ns {
				out = append(out, gen.Defect{Code: "duplicate-id", File: n.file, Line: n.optLine["id"], ID: id})
			}
		}
	}
	for _, n := range nodes {
		for name, es := range n.opts {
			target := optionsOf[n.kind][name]
			if target == "" {
				continue
			}
			for _, e := range es {
				switch ts := byID[e.id]; {
				case len(ts) == 0:
					out = append(out, gen.Defect{Code: "unresolved-link", File: n.file, Line: e.line, ID: n.id, What: e.id})
				case ts[0].kind != target:
					out = append(out, gen.Defect{Code: "wrong-kind", File: n.file, Line: e.line, ID: n.id, What: e.id})
				}
			}
		}
	}
	return out
}
