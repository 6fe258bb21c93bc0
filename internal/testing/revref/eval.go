package revref

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Expect is what seg must say about a tree.
type Expect struct {
	// Status is every requirement's: satisfied, failing or unproven.
	Status map[string]string
	// Revision is every node's.
	Revision map[string]string
	// Diags are "code file:line:col" of every diagnostic of the codes in
	// Compared, sorted.
	Diags []string
	// Hits counts each rule the tree reached.
	Hits map[string]int
}

// Compared are the diagnostic codes Expect predicts, all of them.
var Compared = []string{"stale-link", "unreviewed-link", "invalid-pin", "duplicate-pin", "orphan-pin",
	"missing-source", "invalid-max-age"}

// Expected decides the tree by the spec's rules.
func (t *Tree) Expected() *Expect {
	x := &Expect{Status: map[string]string{}, Revision: map[string]string{}, Hits: map[string]int{}}
	hit := func(s string) { x.Hits[s]++ }
	for _, n := range t.Nodes {
		x.Revision[n.ID] = t.Revision(n)
	}
	diag := func(code, file string, line, col int) {
		x.Diags = append(x.Diags, fmt.Sprintf("%s %s:%d:%d", code, file, line, col))
		hit("diagnostic " + code)
	}

	// seg.lock, then the standing of every link.
	lock := ReadLock(t.Files["seg.lock"])
	for k, v := range lock.Hits {
		x.Hits[k] += v
	}
	x.Diags = append(x.Diags, lock.Diags...)
	for _, d := range lock.Diags {
		hit("diagnostic " + strings.Fields(d)[0])
	}
	links := map[string]*Link{}
	for _, l := range t.Links {
		links[l.Key()] = l
	}
	pinned := map[string][]string{}
	for _, p := range lock.Pins {
		if links[p.Key] == nil {
			diag("orphan-pin", "seg.lock", p.Line, 1)
			continue
		}
		pinned[p.Key] = append(pinned[p.Key], p.Revision)
	}
	// bad: the link counts as stale (stale, or unpinned under strict review).
	bad := map[*Link]bool{}
	for _, l := range t.Links {
		revs, ok := pinned[l.Key()]
		switch {
		case !ok && t.Strict:
			bad[l] = true
			diag("unreviewed-link", l.From.File, l.Entry.Line, l.Entry.Col)
			hit("unreviewed " + l.Type)
		case !ok:
		case slices.ContainsFunc(revs, func(r string) bool { return r != x.Revision[l.To.ID] }):
			bad[l] = true
			diag("stale-link", l.From.File, l.Entry.Line, l.Entry.Col)
			hit("stale " + l.Type)
			if len(revs) > 1 {
				hit("stale through a duplicate pin")
			}
		default:
			hit("current pin")
			if len(revs) > 1 {
				hit("current through a duplicate pin")
			}
		}
	}

	// Node diagnostics of the revision rules.
	for _, n := range t.Nodes {
		if o := n.opt("source"); o != nil && n.Kind == Implementation {
			for _, e := range o.Entries {
				if len(t.match(e.Text)) == 0 {
					diag("missing-source", n.File, e.Line, e.Col)
				} else if strings.ContainsAny(e.Text, "*?[") {
					hit("source glob")
				} else if !slices.Contains(t.Sources, e.Text) {
					hit("source folder")
				}
			}
		}
		if o := n.opt("max-age"); o != nil && n.Kind == Test {
			if _, ok := maxAge(o.Value()); !ok {
				diag("invalid-max-age", n.File, o.Entries[0].Line, o.Entries[0].Col)
			}
		}
	}

	out := map[*Node][]*Link{}
	in := map[*Node][]*Link{}
	for _, l := range t.Links {
		out[l.From] = append(out[l.From], l)
		in[l.To] = append(in[l.To], l)
	}
	active := func(l *Link) bool { return (l.State == "" || l.State == "active") && !bad[l] }

	// The evidence of each test: counted is false when no outcome
	// counts (clause 3), pass false when one does not pass (clause 4),
	// fail true when a counted outcome failed and nothing excuses it.
	type evidence struct{ counted, pass, fail bool }
	tests := map[*Node]evidence{}
	for _, n := range t.Nodes {
		if n.Kind != Test {
			continue
		}
		ev := evidence{pass: true}
		for _, c := range in[n] {
			if c.Type != "confirms" {
				continue
			}
			o := c.From
			if o.Broken || outcomeInvalid(o) {
				hit("invalid outcome")
				if r := o.opt("result"); r != nil && (r.Value() == "failed" || r.Value() == "error") {
					// Its error, not its result, is what counts: unproven.
					hit("invalid outcome whose result says no")
				}
				ev.counted, ev.pass = true, false
				continue
			}
			res := o.opt("result").Value()
			if res == "skipped" {
				continue
			}
			if why := t.excluded(o, n, c, bad, out[o], hit); why != "" {
				hit("excluded: " + why)
				continue
			}
			ev.counted = true
			if res == "passed" {
				continue
			}
			hit("counted outcome that says no")
			if w := t.excuser(o, n, bad, out, hit); w != nil {
				hit("excused")
				continue
			}
			ev.pass, ev.fail = false, true
		}
		tests[n] = ev
	}

	// Leaves from their own evidence; everything else by iterating to the
	// least fixed point from nothing satisfied and nothing failing.
	sat, failing := map[*Node]bool{}, map[*Node]bool{}
	var reqs []*Node
	for _, n := range t.Nodes {
		if n.Kind == Requirement {
			reqs = append(reqs, n)
		}
	}
	leaf := func(r *Node) bool {
		for _, l := range in[r] {
			if l.Type == "refines" {
				return false
			}
		}
		return true
	}
	for changed := true; changed; {
		changed = false
		for _, r := range reqs {
			var s, f bool
			if leaf(r) {
				verifies, implements := false, false
				s = true
				for _, l := range in[r] {
					switch l.Type {
					case "verifies":
						verifies = verifies || active(l)
						ev := tests[l.From]
						s = s && ev.counted && ev.pass
						f = f || ev.fail
					case "implements":
						implements = implements || active(l)
					}
				}
				s = s && verifies && implements
			} else {
				s = true
				for _, l := range in[r] {
					switch l.Type {
					case "refines":
						s = s && sat[l.From]
						f = f || failing[l.From]
					case "verifies", "implements":
						s = s && active(l)
					}
				}
			}
			if s != sat[r] || f != failing[r] {
				sat[r], failing[r], changed = s, f, true
			}
		}
	}
	for _, r := range reqs {
		switch {
		case sat[r]:
			x.Status[r.ID] = "satisfied"
		case failing[r]:
			x.Status[r.ID] = "failing"
		default:
			x.Status[r.ID] = "unproven"
		}
		hit("status " + x.Status[r.ID])
		if !leaf(r) {
			hit("non-leaf " + x.Status[r.ID])
		}
	}
	slices.Sort(x.Diags)
	return x
}

// maxAge reads a :max-age: value: a positive whole number of days,
// written without sign or leading zero.
func maxAge(s string) (int, bool) {
	if strings.HasPrefix(s, "0") {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n > 0
}

func day(s string) (time.Time, bool) {
	d, err := time.Parse(time.DateOnly, s)
	return d, err == nil
}

// outcomeInvalid: the outcome has an error on it (a missing or unknown
// result, a bad date), so it counts against, whatever else is true.
func outcomeInvalid(o *Node) bool {
	r := o.opt("result")
	if r == nil || !slices.Contains([]string{"passed", "failed", "error", "skipped"}, r.Value()) {
		return true
	}
	if d := o.opt("date"); d != nil {
		if _, ok := day(d.Value()); !ok {
			return true
		}
	}
	return false
}

// excluded is why outcome o does not count for test t through confirms
// link c, or "".
func (t *Tree) excluded(o, test *Node, c *Link, bad map[*Link]bool, out []*Link, hit func(string)) string {
	var date time.Time
	dated := false
	if d := o.opt("date"); d != nil {
		date, dated = day(d.Value())
	}
	if dated && date.After(t.At) {
		return "future-evidence"
	}
	if bad[c] {
		return "stale confirms"
	}
	witnesses, current := 0, 0
	for _, l := range out {
		if l.Type == "witnesses" {
			witnesses++
			if !bad[l] {
				current++
			}
		}
	}
	if witnesses == 0 {
		return "unwitnessed"
	}
	if current == 0 {
		return "stale witnesses"
	}
	limit, has := 0, false
	if m := test.opt("max-age"); m != nil {
		n, ok := maxAge(m.Value())
		if !ok {
			return "invalid max-age"
		}
		limit, has = n, true
		hit("maximum age from the test")
	} else if t.MaxAgeDays > 0 {
		limit, has = t.MaxAgeDays, true
		hit("maximum age from seg.toml")
	}
	if has {
		if !dated {
			return "undated-evidence"
		}
		age := int(t.At.Sub(date).Hours() / 24)
		if age > limit {
			return "expired-evidence"
		}
		if age == limit {
			hit("exactly the maximum age")
		}
	}
	return ""
}

// excuser is a waiver in force that excuses outcome o of test, or nil.
func (t *Tree) excuser(o, test *Node, bad map[*Link]bool, out map[*Node][]*Link, hit func(string)) *Node {
	for _, w := range t.Nodes {
		if w.Kind != Waiver {
			continue
		}
		var toOutcome, toTest, any bool
		namesTest := false
		for _, l := range out[w] {
			if l.Type != "excuses" {
				continue
			}
			if l.To.Kind == Test {
				namesTest = true
			}
			if l.To != o && l.To != test {
				continue
			}
			any = true
			if bad[l] {
				hit("waiver: stale excuses")
				continue
			}
			if l.To == o {
				toOutcome = true
			} else {
				toTest = true
			}
		}
		if !any {
			continue
		}
		if why := t.waiverFault(w, namesTest); why != "" {
			hit("waiver: " + why)
			continue
		}
		// A hand-written outcome has no case name: a waiver of its test
		// with :cases: does not reach it.
		if toTest && w.opt("cases") != nil && !toOutcome {
			hit("waiver: cases miss")
			continue
		}
		if toOutcome || toTest {
			if e := w.opt("expires"); e != nil && e.Value() == t.At.Format(time.DateOnly) {
				hit("waiver in force on its expiry day")
			}
			return w
		}
	}
	return nil
}

// waiverFault is why waiver w excuses nothing at all, or "": an error on
// it, an expiry date before the evaluation date, a grant date after it.
func (t *Tree) waiverFault(w *Node, namesTest bool) string {
	switch {
	case w.Broken:
		return "broken link"
	case w.opt("cases") != nil && !namesTest:
		return "cases-not-allowed"
	}
	for _, f := range []struct {
		opt, why string
		gone     func(time.Time) bool
	}{
		{"expires", "expired", func(d time.Time) bool { return d.Before(t.At) }},
		{"date", "future", func(d time.Time) bool { return d.After(t.At) }},
	} {
		if o := w.opt(f.opt); o != nil {
			d, ok := day(o.Value())
			switch {
			case !ok:
				return "invalid " + f.opt
			case f.gone(d):
				return f.why
			}
		}
	}
	return ""
}
