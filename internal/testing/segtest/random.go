package segtest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/seg-trace/seg/parser"
)

// RandomTree makes a tree with every corner the rules have: edge states,
// skipped, error and invalid results, unwitnessed outcomes, waivers around
// the evaluation date, cycles, duplicate links and dangling links.
func RandomTree(r *rand.Rand) *Tree {
	tr := &Tree{}
	nReq := 1 + r.IntN(12)
	nTest := r.IntN(8)
	nImpl := 1 + r.IntN(3)
	nOut := r.IntN(14)
	nWaiver := r.IntN(6)
	pick := func(prefix string, n int, states bool) string {
		if n == 0 {
			return ""
		}
		var parts []string
		for k := r.IntN(3); k >= 0; k-- {
			id := fmt.Sprintf("%s%d", prefix, r.IntN(n))
			if r.IntN(25) == 0 {
				id += "x" // dangling
			}
			if states {
				switch r.IntN(6) {
				case 0:
					id += " (suspect)"
				case 1:
					id += " (retired)"
				case 2:
					id += " (active)"
				}
			}
			parts = append(parts, id)
		}
		return strings.Join(parts, ", ")
	}
	for i := range nReq {
		refines := ""
		if r.IntN(2) == 0 {
			// Mostly refine lower numbers (a hierarchy), sometimes any: cycles.
			if r.IntN(6) == 0 || i == 0 {
				refines = pick("R", nReq, false)
			} else {
				refines = fmt.Sprintf("R%d", r.IntN(i))
			}
		}
		tr.Req(fmt.Sprintf("R%d", i), refines)
	}
	for i := range nTest {
		tr.Test(fmt.Sprintf("T%d", i), pick("R", nReq, true))
	}
	for i := range nImpl {
		tr.Impl(fmt.Sprintf("I%d", i), pick("R", nReq, true))
	}
	// Well-traced requirements, so that satisfied verdicts are common and
	// a single failure, waiver or state elsewhere flips them.
	for i := range nReq {
		if r.IntN(3) != 0 {
			tr.Test(fmt.Sprintf("TR%d", i), fmt.Sprintf("R%d", i))
			tr.Impl(fmt.Sprintf("IR%d", i), fmt.Sprintf("R%d", i))
			tr.Outcome(fmt.Sprintf("OR%d", i), fmt.Sprintf("TR%d", i), fmt.Sprintf("IR%d", i), "passed")
			if r.IntN(3) == 0 {
				res := []string{"failed", "error", "skipped"}[r.IntN(3)]
				tr.Outcome(fmt.Sprintf("OF%d", i), fmt.Sprintf("TR%d", i), fmt.Sprintf("IR%d", i), res)
				if r.IntN(2) == 0 {
					tr.Waiver(fmt.Sprintf("WF%d", i), fmt.Sprintf("OF%d", i), []string{"", "2026-11-28", "2026-11-29", "2026-11-30", "2026-02-30"}[r.IntN(5)])
				}
			}
		}
	}
	results := []string{"passed", "passed", "passed", "passed", "passed", "failed", "failed", "skipped", "error", "", "bogus"}
	for i := range nOut {
		w := ""
		if r.IntN(5) != 0 {
			w = pick("I", nImpl, false)
		}
		// Mostly one outcome per test in turn, so that many leaves have
		// evidence and a single failure or waiver decides their verdict.
		confirms := fmt.Sprintf("T%d", i%max(nTest, 1))
		if r.IntN(4) == 0 {
			confirms = pick("T", max(nTest, 1), false)
		}
		tr.Outcome(fmt.Sprintf("O%d", i), confirms, w, results[r.IntN(len(results))])
	}
	dates := []string{"", "2026-11-28", "2026-11-29", "2026-11-30", "2027-13-01"}
	for i := range nWaiver {
		excuses := pick("O", max(nOut, 1), false)
		if nOut > 0 && r.IntN(2) == 0 {
			excuses = fmt.Sprintf("O%d", r.IntN(nOut))
		}
		tr.Waiver(fmt.Sprintf("W%d", i), excuses, dates[r.IntN(len(dates))])
	}
	return tr
}

// Naive is a deliberately simple reference: it reads the raw nodes with
// maps, and iterates the two rules from "nothing satisfied" until nothing
// changes (the least fixed point).
func Naive(tr *Tree, at time.Time) map[string]bool {
	byID := map[string]*parser.Node{}
	for i := range tr.Nodes {
		byID[tr.Nodes[i].ID] = &tr.Nodes[i]
	}
	type edge struct {
		from, to string
		active   bool
	}
	var refines, verifies, implements, confirms, excuses []edge
	witnessed := map[string]bool{}
	// broken: an outcome with an error on it (a link that resolves to no
	// node of the right kind, a result outside the vocabulary) counts
	// against every test it confirms, witnessed or not.
	broken := map[string]bool{}
	want := map[string]parser.Kind{"refines": parser.Requirement, "verifies": parser.Requirement,
		"implements": parser.Requirement, "confirms": parser.Test, "witnesses": parser.Implementation, "excuses": parser.Outcome}
	kindOf := func(id string) parser.Kind {
		if n, ok := byID[id]; ok {
			return n.Kind
		}
		return 0
	}
	for _, n := range tr.Nodes {
		if n.Kind == parser.Outcome {
			switch o := n.Option("result"); {
			case o == nil:
				broken[n.ID] = true
			case o.Value != "passed" && o.Value != "failed" && o.Value != "skipped" && o.Value != "error":
				broken[n.ID] = true
			}
		}
		for _, o := range n.Options {
			for _, l := range o.Links {
				if k, ok := want[o.Name]; ok && kindOf(l.ID) != k {
					broken[n.ID] = true
				}
				e := edge{n.ID, l.ID, l.State == parser.Active}
				switch {
				case o.Name == "refines" && kindOf(l.ID) == parser.Requirement:
					refines = append(refines, e)
				case o.Name == "verifies" && kindOf(l.ID) == parser.Requirement:
					verifies = append(verifies, e)
				case o.Name == "implements" && kindOf(l.ID) == parser.Requirement:
					implements = append(implements, e)
				case o.Name == "confirms" && kindOf(l.ID) == parser.Test:
					confirms = append(confirms, e)
				case o.Name == "witnesses" && kindOf(l.ID) == parser.Implementation:
					witnessed[n.ID] = true
				case o.Name == "excuses" && kindOf(l.ID) == parser.Outcome:
					excuses = append(excuses, e)
				}
			}
		}
	}
	result := func(id string) string {
		if o := byID[id].Option("result"); o != nil {
			return o.Value
		}
		return ""
	}
	excused := func(outcome string) bool {
		for _, e := range excuses {
			// A waiver with an error on it (a link that resolves to no
			// node of the right kind) excuses nothing: bad input never
			// makes evidence appear.
			if e.to != outcome || broken[e.from] {
				continue
			}
			o := byID[e.from].Option("expires")
			if o == nil {
				return true
			}
			d, err := time.Parse("2006-01-02", o.Value)
			if err == nil && !d.Before(at) {
				return true
			}
		}
		return false
	}
	testOK := func(test string) bool {
		ran := false
		for _, c := range confirms {
			if c.to != test {
				continue
			}
			if broken[c.from] {
				return false
			}
			if !witnessed[c.from] {
				continue
			}
			switch res := result(c.from); {
			case res == "skipped":
			case res == "passed":
				ran = true
			case (res == "failed" || res == "error") && excused(c.from):
				ran = true
			default:
				return false
			}
		}
		return ran
	}
	sat := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, n := range tr.Nodes {
			if n.Kind != parser.Requirement {
				continue
			}
			leaf := true
			for _, e := range refines {
				if e.to == n.ID {
					leaf = false
				}
			}
			ok := true
			if leaf {
				anyV, anyI := false, false
				for _, e := range verifies {
					if e.to == n.ID {
						anyV = anyV || e.active
						ok = ok && testOK(e.from)
					}
				}
				for _, e := range implements {
					if e.to == n.ID {
						anyI = anyI || e.active
					}
				}
				ok = ok && anyV && anyI
			} else {
				for _, e := range refines {
					if e.to == n.ID && !sat[e.from] {
						ok = false
					}
				}
				for _, e := range append(append([]edge{}, verifies...), implements...) {
					if e.to == n.ID && !e.active {
						ok = false
					}
				}
			}
			if ok != sat[n.ID] {
				sat[n.ID] = ok
				changed = true
			}
		}
	}
	return sat
}
