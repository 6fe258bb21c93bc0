package revref

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// BaseDay is the day evaluation dates are drawn around.
var BaseDay = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

type gen struct {
	r    *rand.Rand
	t    *Tree
	pre  string // the tree's ID prefix
	fake int    // numbers the fake directives in literal text
	// noise scales the odds of everything that takes evidence away, so
	// that quiet trees have verdicts a single rule can flip.
	noise float64
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// fault is chance scaled by the tree's noise.
func (g *gen) fault(p float64) bool { return g.r.Float64() < p*g.noise }

func pick[T any](g *gen, xs ...T) T { return xs[g.r.IntN(len(xs))] }

func (g *gen) hit(s string) { g.t.Hits[s]++ }

// dayText is the evaluation date moved by d days, as YYYY-MM-DD.
func (g *gen) dayText(d int) string { return g.t.At.AddDate(0, 0, d).Format(time.DateOnly) }

var vocabulary = strings.Fields(`the controller shall map pedal travel to a pressure request within
ten milliseconds using calibrated valve sensor limits fault mode apply release brake signal
monitor each cycle report latency bench hil run`)

func (g *gen) words(lo, hi int) string {
	n := lo + g.r.IntN(hi-lo+1)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = pick(g, vocabulary...)
	}
	return strings.Join(ws, " ")
}

// Generate makes the tree of one seed.
func Generate(seed uint64) *Tree {
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x5e9)), t: &Tree{Seed: seed, ByID: map[string]*Node{}, Files: map[string]string{}, Hits: map[string]int{}}}
	t := g.t
	t.At = BaseDay.AddDate(0, 0, g.r.IntN(5)-2)
	g.noise = pick(g, 0.1, 0.3, 0.6)
	t.Strict = g.chance(0.2)
	if g.chance(0.2) {
		t.MaxAgeDays = pick(g, 5, 10, 30, 60, 90)
	}
	t.Extra = g.chance(0.3)
	g.sources()
	nodes := g.nodes()
	g.place(nodes)
	for _, n := range t.Nodes {
		for _, o := range n.Options {
			if linkOptions[o.Name] == nil {
				continue
			}
			for _, e := range o.Entries {
				to := t.ByID[e.Text]
				switch {
				case to == nil:
					n.Broken = true
					g.hit("unresolved link")
				case !slices.Contains(linkOptions[o.Name], to.Kind):
					n.Broken = true
					g.hit("link to the wrong kind")
				default:
					t.Links = append(t.Links, &Link{Type: o.Name, From: n, To: to, State: e.State, Entry: e})
				}
			}
		}
	}
	g.config()
	g.lock()
	return t
}

// sources writes the source files :source: entries can name; some are
// left out so that entries miss.
func (g *gen) sources() {
	for _, p := range []string{"src/a.c", "src/b.c", "src/lib/x.c", "src/lib/deep/y.c", "src/lib/.hidden.c", "include/h.h", "include/io.h"} {
		if p != "src/a.c" && g.chance(0.15) {
			continue
		}
		text := fmt.Sprintf("/* %s */\nint f%d(void) { return %d; }\n", p, g.r.IntN(3), g.r.IntN(3))
		if g.chance(0.1) {
			text = ""
		}
		g.t.Files[p] = text
		g.t.Sources = append(g.t.Sources, p)
	}
	slices.Sort(g.t.Sources)
}

// entry is a list entry without a position yet.
func entry(text, state string) *Entry { return &Entry{Text: text, State: state} }

// list is a list option (links, :source:) with its entries laid out over
// one or more lines, separators and white space varied.
func (g *gen) list(name string, es []*Entry) *Option {
	if linkOptions[name] != nil && len(es) > 0 {
		// Now and then an entry twice (as its own edge, maybe in another
		// state) or an entry that makes no edge, an error on the node.
		if g.chance(0.03) {
			e := pick(g, es...)
			state := e.State
			if name == "verifies" || name == "implements" {
				state = g.state()
			}
			es = append(es, entry(e.Text, state))
			g.hit("an entry twice in one option")
		}
		if g.fault(0.03) {
			wrong := map[string]string{"refines": "TS-1", "verifies": "IMPL-1", "implements": "TS-1",
				"confirms": "REQ-1", "witnesses": "TS-1", "excuses": "REQ-1"}[name]
			es = slices.Insert(es, g.r.IntN(len(es)+1), entry(g.pre+pick(g, "GHOST-1", wrong), ""))
		}
	}
	o := &Option{Name: name, ContIndent: 1 + g.r.IntN(4), Lines: []string{""}}
	li := 0
	if g.chance(0.1) {
		o.Lines = append(o.Lines, "")
		li = 1
		g.hit("value on a continuation line")
	}
	for i, e := range es {
		if i > 0 {
			sep := pick(g, ", ", ", ", ",", " ,  ", "; ", " | ", ",\n", ", ,", ";\n")
			if strings.HasSuffix(sep, "\n") {
				o.Lines[li] += strings.TrimSuffix(sep, "\n")
				o.Lines = append(o.Lines, "")
				li++
				g.hit("link list over lines")
			} else {
				o.Lines[li] += sep
			}
		}
		e.line, e.off = li, len(o.Lines[li])
		o.Lines[li] += e.Text
		if e.State != "" {
			o.Lines[li] += " (" + e.State + ")"
		}
	}
	if g.chance(0.1) {
		o.Lines[li] += ","
	}
	if g.chance(0.1) {
		o.Lines[li] += "  "
	}
	o.Entries = es
	return o
}

// simple is a one-line option; the entry marks its value's position.
func (g *gen) simple(name, value string) *Option {
	o := &Option{Name: name, Lines: []string{value}, Entries: []*Entry{{Text: value}}}
	if g.chance(0.1) {
		o.Lines[0] += pick(g, " ", "\t", "   ")
	}
	return o
}

// wrapped is an option whose value may continue on further lines.
func (g *gen) wrapped(name, value string) *Option {
	ws := strings.Fields(value)
	if len(ws) < 2 || !g.chance(0.4) {
		return g.simple(name, value)
	}
	cut := 1 + g.r.IntN(len(ws)-1)
	g.hit("option continuation line")
	return &Option{Name: name, ContIndent: 1 + g.r.IntN(4), Lines: []string{strings.Join(ws[:cut], " "), strings.Join(ws[cut:], " ")}}
}

func (g *gen) state() string {
	switch {
	case g.fault(0.2):
		return pick(g, "suspect", "suspect", "retired")
	case g.chance(0.1):
		return "active"
	}
	return ""
}

// newNode makes a node of kind with its ID, its options (plus :id: and
// extra options, in random order), a title and a body of text.
func (g *gen) newNode(kind Kind, id string, opts []*Option) *Node {
	dir := map[Kind]string{Test: "test", Implementation: "impl", Outcome: "outcome", Waiver: "waiver"}[kind]
	if kind == Requirement {
		dir = pick(g, "sreq", "req", "sys")
	}
	if g.chance(0.04) {
		dir = strings.ToUpper(dir[:1]) + dir[1:]
		g.hit("directive name in another case")
	}
	n := &Node{Kind: kind, ID: id, Directive: dir, Indent: pick(g, 3, 3, 3, 4, 2), Tabs: g.chance(0.25)}
	switch x := g.r.Float64(); {
	case x < 0.05:
		n.Title = nil
	case x < 0.2:
		n.Title = []string{g.words(1, 4), g.words(1, 3)}
		g.hit("title over lines")
	default:
		w := g.words(1, 5)
		n.Title = []string{strings.ToUpper(w[:1]) + w[1:]}
	}
	if n.Title != nil && g.chance(0.1) {
		n.Title[0] += "  "
	}
	if g.t.Extra {
		if g.chance(0.4) {
			opts = append(opts, g.simple("status", pick(g, "approved", "draft")))
		}
		if g.chance(0.3) {
			opts = append(opts, g.wrapped("tags", pick(g, "safety", "safety brake", "asil-b timing brake")))
		}
	}
	idOpt := g.simple("id", id)
	g.r.Shuffle(len(opts), func(i, j int) { opts[i], opts[j] = opts[j], opts[i] })
	if g.chance(0.6) {
		n.Options = append([]*Option{idOpt}, opts...)
	} else {
		k := g.r.IntN(len(opts) + 1)
		n.Options = slices.Insert(opts, k, idOpt)
	}
	n.Body = g.body()
	g.t.ByID[id] = n
	return n
}

// body is a node's content of text: paragraphs, blank runs, block quotes
// (some indented with tabs), literal blocks and comments holding
// directives that are not nodes.
func (g *gen) body() []Part {
	if g.chance(0.3) {
		return nil
	}
	var ps []Part
	for range 1 + g.r.IntN(4) {
		ps = append(ps, g.text())
	}
	return ps
}

func (g *gen) para() []string {
	var ls []string
	for range 1 + g.r.IntN(3) {
		l := g.words(2, 7)
		if g.chance(0.1) {
			l = strings.Replace(l, " ", "\t", 1)
			g.hit("tab inside a line")
		}
		if g.chance(0.1) {
			l += pick(g, " ", "\t", "   ")
			g.hit("trailing white space")
		}
		ls = append(ls, l)
	}
	return ls
}

// fakeNode is a directive that sits where nothing is a node.
func (g *gen) fakeNode(ind string) []string {
	g.fake++
	return []string{ind + ".. " + pick(g, "sreq", "test", "impl") + ":: Not a node", ind + "   :id: FAKE-" + fmt.Sprint(g.fake)}
}

func (g *gen) text() Part {
	switch x := g.r.Float64(); {
	case x < 0.45:
		return Part{Lines: g.para()}
	case x < 0.55:
		g.hit("blank run")
		ls := []string{""}
		for range 1 + g.r.IntN(3) {
			ls = append(ls, pick(g, "", "", " ", "\t"))
		}
		return Part{Lines: append(ls, g.para()...)}
	case x < 0.72:
		prefix := pick(g, "  ", "    ", "\t", " \t")
		if strings.Contains(prefix, "\t") {
			g.hit("tab indentation in a body")
		}
		var ls []string
		for _, l := range g.para() {
			ls = append(ls, prefix+l)
		}
		g.hit("block quote")
		return Part{Lines: ls}
	case x < 0.82:
		g.hit("literal block")
		ls := []string{g.words(2, 5) + "::", ""}
		ls = append(ls, "    x = pedal * gain", "")
		return Part{Lines: append(ls, g.fakeNode("    ")...)}
	case x < 0.91:
		g.hit("code-block")
		ls := []string{".. code-block:: rst", ""}
		return Part{Lines: append(ls, g.fakeNode("   ")...)}
	default:
		g.hit("comment")
		ls := []string{".. " + g.words(2, 4)}
		return Part{Lines: append(ls, g.fakeNode("   ")...)}
	}
}

// nodes makes the tree's nodes and their links.
func (g *gen) nodes() []*Node {
	pre := pick(g, "", "BRK-", "seg.", "x_")
	g.pre = pre
	nReq := 2 + g.r.IntN(6)
	reqIDs := make([]string, nReq)
	parents := make([][]int, nReq) // a DAG: each refines earlier ones
	for i := range reqIDs {
		reqIDs[i] = fmt.Sprintf("%sREQ-%d", pre, i+1)
		if i > 0 && g.chance(0.55) {
			p := g.r.IntN(i)
			parents[i] = append(parents[i], p)
			if q := g.r.IntN(i); q != p && g.chance(0.2) {
				parents[i] = append(parents[i], q)
			}
		}
	}
	// Sometimes a cycle: a parent refines its child back.
	for i := range reqIDs {
		if len(parents[i]) > 0 && g.chance(0.08) {
			p := parents[i][0]
			parents[p] = append(parents[p], i)
			g.hit("refinement cycle")
			break
		}
	}
	isParent := map[string]bool{}
	for _, ps := range parents {
		for _, p := range ps {
			isParent[reqIDs[p]] = true
		}
	}

	nTest, nImpl := 1+g.r.IntN(4), 1+g.r.IntN(3)
	verifies := make([][]*Entry, nTest)
	implements := make([][]*Entry, nImpl)
	add := func(list [][]*Entry, k int, id string) {
		for _, e := range list[k] {
			if e.Text == id {
				return
			}
		}
		list[k] = append(list[k], entry(id, g.state()))
	}
	for _, id := range reqIDs {
		p, q := 0.92, 0.92
		if isParent[id] {
			p, q = 0.2, 0.15
		}
		if g.chance(p) {
			add(verifies, g.r.IntN(nTest), id)
		}
		if g.chance(q) {
			add(implements, g.r.IntN(nImpl), id)
		}
	}
	for k := range verifies {
		if len(verifies[k]) == 0 && g.chance(0.8) {
			add(verifies, k, pick(g, reqIDs...))
		}
	}
	for k := range implements {
		if len(implements[k]) == 0 {
			add(implements, k, pick(g, reqIDs...))
		}
	}

	var nodes []*Node
	for i, id := range reqIDs {
		var opts []*Option
		if len(parents[i]) > 0 {
			var es []*Entry
			for _, p := range parents[i] {
				es = append(es, entry(reqIDs[p], ""))
			}
			opts = append(opts, g.list("refines", es))
		}
		nodes = append(nodes, g.newNode(Requirement, id, opts))
	}
	testIDs := make([]string, nTest)
	for k := range testIDs {
		testIDs[k] = fmt.Sprintf("%sTS-%d", pre, k+1)
	}
	implIDs := make([]string, nImpl)
	for k := range implIDs {
		implIDs[k] = fmt.Sprintf("%sIMPL-%d", pre, k+1)
	}
	for k, id := range testIDs {
		var opts []*Option
		if len(verifies[k]) > 0 {
			opts = append(opts, g.list("verifies", verifies[k]))
		}
		if g.chance(0.2) {
			v := fmt.Sprint(pick(g, 1, 5, 10, 30, 60, 90))
			if g.fault(0.3) {
				v = pick(g, "0", "-3", "3 months", "ninety", "1.5", "1e3", "030", "+30")
			}
			opts = append(opts, g.simple("max-age", v))
		}
		if g.chance(0.1) {
			opts = append(opts, g.list("cases", []*Entry{entry("example.com/brake.TestPedal/*", "")}))
		}
		nodes = append(nodes, g.newNode(Test, id, opts))
	}
	for k, id := range implIDs {
		opts := []*Option{g.list("implements", implements[k])}
		if g.chance(0.6) {
			var es []*Entry
			for range 1 + g.r.IntN(3) {
				es = append(es, entry(pick(g, "src/a.c", "src/b.c", "src/lib/x.c", "src/*.c", "src/**/*.c", "src/lib",
					"include", "src/?.c", "src/[ab].c", "include/*.h", "src/lib/.hidden.c", "src/missing.c", "lib/**/*.rs", "nowhere"), ""))
			}
			opts = append(opts, g.list("source", es))
		}
		nodes = append(nodes, g.newNode(Implementation, id, opts))
	}

	var outcomes []*Node
	for k, tid := range testIDs {
		n := pick(g, 1, 1, 1, 2, 2, 3)
		if g.fault(0.3) {
			n = 0
		}
		for range n {
			id := fmt.Sprintf("%sOUT-%d", pre, len(outcomes)+1)
			confirms := []*Entry{entry(tid, "")}
			if other := g.r.IntN(nTest); other != k && g.chance(0.1) {
				confirms = append(confirms, entry(testIDs[other], ""))
			}
			opts := []*Option{g.list("confirms", confirms)}
			var ws []*Entry
			nw := pick(g, 1, 1, 1, 2) % (nImpl + 1)
			if g.fault(0.15) {
				nw = 0
			}
			for _, j := range g.r.Perm(nImpl)[:nw] {
				ws = append(ws, entry(implIDs[j], ""))
			}
			if len(ws) > 0 {
				opts = append(opts, g.list("witnesses", ws))
			}
			switch x := g.r.Float64(); {
			case !g.chance(0.3):
				opts = append(opts, g.simple("result", "passed"))
			case x < 0.45:
				opts = append(opts, g.simple("result", "failed"))
			case x < 0.6:
				opts = append(opts, g.simple("result", "error"))
			case x < 0.8:
				opts = append(opts, g.simple("result", "skipped"))
			case x < 0.92:
				opts = append(opts, g.simple("result", pick(g, "green", "PASSED", "pass")))
			}
			switch {
			case g.fault(0.05):
				opts = append(opts, g.simple("date", pick(g, "2026-13-01", "2026-02-30", "yesterday", "2026/11/01", "2026-1-5")))
			case g.chance(0.07):
				opts = append(opts, g.simple("date", g.dayText(pick(g, 1, 1, 2, 40))))
			case g.chance(0.25):
			default:
				opts = append(opts, g.simple("date", g.dayText(-pick(g, 0, 1, 2, 5, 6, 10, 11, 30, 31, 60, 90, 400))))
			}
			if g.chance(0.2) {
				opts = append(opts, g.wrapped("config", pick(g, "linux amd64", "hil bench a", "arm")))
			}
			o := g.newNode(Outcome, id, opts)
			outcomes = append(outcomes, o)
			nodes = append(nodes, o)
		}
	}
	var against []*Node // outcomes that say no
	for _, o := range outcomes {
		if r := o.opt("result"); r != nil && (r.Value() == "failed" || r.Value() == "error") {
			against = append(against, o)
		}
	}
	// Most outcomes that say no get a waiver, of the outcome or of its
	// test; a few waivers aim anywhere.
	var aims []string
	for _, o := range against {
		if g.chance(0.6) {
			aims = append(aims, pick(g, o.ID, o.opt("confirms").Entries[0].Text))
		}
	}
	for range pick(g, 0, 0, 1) {
		if len(outcomes) > 0 && g.chance(0.6) {
			aims = append(aims, pick(g, outcomes...).ID)
		} else {
			aims = append(aims, pick(g, testIDs...))
		}
	}
	for w, aim := range aims {
		var es []*Entry
		add := func(id string) {
			if !slices.ContainsFunc(es, func(e *Entry) bool { return e.Text == id }) {
				es = append(es, entry(id, ""))
			}
		}
		add(aim)
		if g.chance(0.25) {
			if len(outcomes) > 0 && g.chance(0.5) {
				add(pick(g, outcomes...).ID)
			} else {
				add(pick(g, testIDs...))
			}
		}
		opts := []*Option{g.list("excuses", es)}
		// At most one thing that takes the waiver's force away, and
		// settings that leave it.
		expires, date := "", ""
		if g.chance(0.4) {
			expires = g.dayText(pick(g, 0, 0, 1, 20, 200))
		}
		if g.chance(0.3) {
			date = g.dayText(pick(g, -40, -1, 0))
		}
		cases := false
		problem := -1
		if g.chance(0.7) {
			problem = g.r.IntN(7)
		}
		switch problem {
		case 0:
			expires = g.dayText(pick(g, -30, -1))
		case 1:
			expires = pick(g, "2026-02-30", "soon", "31.12.2026")
		case 2:
			date = g.dayText(pick(g, 1, 10))
		case 3:
			date = pick(g, "2026-11-31", "today")
		case 4, 5, 6:
			cases = true
		}
		if expires != "" {
			opts = append(opts, g.simple("expires", expires))
		}
		if date != "" {
			opts = append(opts, g.simple("date", date))
		}
		if cases {
			opts = append(opts, g.list("cases", []*Entry{entry("example.com/brake.TestPedal/*", "")}))
		}
		nodes = append(nodes, g.newNode(Waiver, fmt.Sprintf("%sWVR-%d", pre, w+1), opts))
	}
	return nodes
}

// place puts every node in a file or in another node's content, then
// writes the RST files.
func (g *gen) place(nodes []*Node) {
	t := g.t
	names := []string{"index.rst", "docs/requirements.rst", "docs/sub/tests.rst", "docs/evidence/runs.rst"}
	docs := make([]*doc, 1+g.r.IntN(4))
	for i := range docs {
		heading := g.words(2, 4)
		docs[i] = &doc{path: names[i], eol: pick(g, "\n", "\n", "\n", "\n", "\r\n", "\r\n", "\r"),
			parts: []Part{{Lines: []string{heading, strings.Repeat("=", len(heading))}}}}
		if docs[i].eol != "\n" {
			g.hit(fmt.Sprintf("file with %q line ends", docs[i].eol))
		}
	}
	depth := map[*Node]int{}
	var placed []*Node
	order := slices.Clone(nodes)
	g.r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	for _, n := range order {
		var hosts []*Node
		for _, p := range placed {
			if depth[p] < 2 {
				hosts = append(hosts, p)
			}
		}
		if len(hosts) > 0 && g.chance(0.2) {
			h := pick(g, hosts...)
			part := Part{Node: n, Wrap: pick(g, "", "", "note", "item")}
			if part.Wrap == "item" {
				part.Lines = []string{g.words(2, 4)}
			}
			k := g.r.IntN(len(h.Body) + 1)
			h.Body = slices.Insert(h.Body, k, part)
			depth[n] = depth[h] + 1
			g.hit("nested node")
			g.hit("nested node, wrap " + part.Wrap)
		} else {
			d := pick(g, docs...)
			if g.chance(0.3) {
				d.parts = append(d.parts, g.text())
			}
			d.parts = append(d.parts, Part{Node: n})
		}
		placed = append(placed, n)
	}
	for _, d := range docs {
		t.Files[d.path] = d.render()
	}
	// Nodes in the order they sit in the files.
	for _, d := range docs {
		var walk func(ps []Part)
		walk = func(ps []Part) {
			for _, p := range ps {
				if p.Node != nil {
					t.Nodes = append(t.Nodes, p.Node)
					walk(p.Node.Body)
				}
			}
		}
		walk(d.parts)
	}
	for _, n := range t.Nodes {
		if n.Tabs && n.Col > 1 {
			g.hit("node indented with tabs")
		}
	}
}

// config writes seg.toml when the tree has settings.
func (g *gen) config() {
	var b strings.Builder
	if g.t.Extra {
		b.WriteString("extra_options = [\"status\", \"tags\"]\n")
	}
	if g.t.Strict {
		b.WriteString("[review]\nrequire-pins = true\n")
	}
	if g.t.MaxAgeDays > 0 {
		fmt.Fprintf(&b, "[evidence]\nmax-age-days = %d\n", g.t.MaxAgeDays)
	}
	if b.Len() > 0 {
		g.t.Files["seg.toml"] = b.String()
	}
}

// lock writes seg.lock: pins current (some in upper case), stale,
// duplicated, unreadable, orphan, with comments, blank lines, tabs and
// CRLF line ends.
func (g *gen) lock() {
	t := g.t
	if g.chance(0.1) {
		return
	}
	rev := map[string]string{}
	for _, n := range t.Nodes {
		rev[n.ID] = t.Revision(n)
	}
	other := func(not string) string {
		for {
			s := fmt.Sprintf("%016x", g.r.Uint64())
			if s != not {
				return s
			}
		}
	}
	crlf := g.chance(0.15)
	line := func(fields ...string) string {
		var b strings.Builder
		if g.chance(0.05) {
			b.WriteString(pick(g, " ", "\t", "  "))
		}
		for i, f := range fields {
			if i > 0 {
				b.WriteString(pick(g, " ", " ", " ", "  ", "\t", " \t"))
			}
			b.WriteString(f)
		}
		if g.chance(0.05) {
			b.WriteString(pick(g, " ", "\t"))
		}
		return b.String()
	}
	var body []string
	for _, l := range t.Links {
		cur := rev[l.To.ID]
		f := []string{l.From.ID, l.Type, l.To.ID}
		x := g.r.Float64()
		if !g.fault(0.4) {
			x = 0 // no fault: one of the first cases
		}
		switch {
		case x < 0.25 && !t.Strict && g.chance(0.4):
		case x < 0.25 && g.chance(0.1):
			body = append(body, line(append(f, strings.ToUpper(cur))...))
			g.hit("pin in upper case")
		case x < 0.25 && g.chance(0.05):
			body = append(body, line(append(f, cur)...), line(append(f, cur)...))
			g.hit("duplicate pin, same revision")
		case x < 0.25:
			body = append(body, line(append(f, cur)...))
		case x < 0.5:
			if !t.Strict {
				body = append(body, line(append(f, other(cur))...))
			}
		case x < 0.7:
			body = append(body, line(append(f, other(cur))...))
		case x < 0.85:
			a, b := line(append(f, cur)...), line(append(f, other(cur))...)
			if g.chance(0.5) {
				a, b = b, a
			}
			body = append(body, a, b)
			g.hit("duplicate pin, another revision")
		default:
			body = append(body, g.badLine(f, cur, line))
			if g.chance(0.5) {
				body = append(body, line(append(f, cur)...))
			} else if t.Strict {
				g.hit("strict review, a link with only an unreadable line")
			}
		}
	}
	// Orphans: a link type the two nodes do not have, or a node that
	// does not exist.
	for range pick(g, 0, 0, 1, 2) {
		from, to := pick(g, t.Nodes...), pick(g, t.Nodes...)
		f := []string{from.ID, pick(g, "refines", "verifies", "implements", "confirms", "witnesses", "excuses"), to.ID}
		if g.chance(0.4) {
			f[pick(g, 0, 2)] = "GONE-1"
		}
		if g.r.IntN(5) == 0 && len(t.Links) > 0 {
			l := pick(g, t.Links...)
			f = []string{l.From.ID, l.Type, l.To.ID + "X"}
		}
		body = append(body, line(append(f, other(""))...))
		if g.chance(0.2) {
			body = append(body, line(append(f, other(""))...))
			g.hit("duplicate orphan pin")
		}
	}
	for range pick(g, 0, 0, 1, 2, 3) {
		l := t.Links
		f := []string{"GONE-2", "verifies", "GONE-3"}
		if len(l) > 0 {
			k := pick(g, l...)
			f = []string{k.From.ID, k.Type, k.To.ID}
		}
		body = append(body, g.badLine(f, other(""), line))
	}
	for range pick(g, 0, 1, 2) {
		k := g.r.IntN(len(body) + 1)
		body = slices.Insert(body, k, pick(g, "", "  ", "# reviewed by ana", "   # indented comment", "\t"))
	}
	if g.chance(0.5) {
		g.r.Shuffle(len(body), func(i, j int) { body[i], body[j] = body[j], body[i] })
	}
	var text strings.Builder
	if g.chance(0.7) {
		body = append([]string{"# seg.lock: the revision of each link's target when the link was reviewed.",
			"# Written by seg review and seg import; one line a link: FROM LINK TO REVISION"}, body...)
	}
	for _, l := range body {
		text.WriteString(l)
		if crlf || g.chance(0.05) {
			text.WriteString("\r")
		}
		text.WriteString("\n")
	}
	t.Files["seg.lock"] = text.String()
}

// badLine is a seg.lock line seg cannot read, for link f.
func (g *gen) badLine(f []string, rev string, line func(...string) string) string {
	switch g.r.IntN(9) {
	case 0:
		return line(f...)
	case 1:
		return line(f[:2]...)
	case 2:
		return line(f[0])
	case 3:
		return line(append(f, rev, "extra")...)
	case 4:
		return line(append(f, rev, "#", "reviewed")...)
	case 5:
		return line(f[0], pick(g, "verify", "Verifies", "tests", "refine", "source"), f[2], rev)
	case 6:
		return line(f[0], pick(g, "verify", "links"), f[2], rev, "# note")
	case 7:
		return line(append(f, pick(g, rev[:15], rev+"0", "0x"+rev[2:], "g"+rev[1:]))...)
	default:
		return line(append(f, "zz"+rev[2:], "extra")...)
	}
}
