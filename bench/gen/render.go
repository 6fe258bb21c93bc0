package gen

import (
	"bytes"
	"strconv"
	"strings"
)

// renderer writes one file. Every block it writes ends with a blank line.
type renderer struct {
	t       *Tree
	b       []byte
	r       rng
	path    string
	prose   bool
	defects []Defect
	lineOff int
	lines   int
	tmp     []byte // text being put together before it is wrapped
}

const spaces = "                                                                "

// Render appends the bytes of file i to buf and returns them with the
// defects planted in that file. It depends only on the tree and i.
func (t *Tree) Render(i int, buf []byte) ([]byte, []Defect) {
	f := &t.files[i]
	w := &renderer{t: t, b: buf, r: newRNG(t.seed, 3, uint64(i)), path: f.path, prose: !t.dense}
	w.lineOff = len(buf)
	units := t.units[f.lo:f.hi]
	switch f.cat {
	case fIndex:
		w.index()
	case fSystem:
		w.systemFile(f, units)
	case fSoftware:
		w.softwareFile(f, units)
	case fTests:
		w.testsFile(f, units)
	case fImpl:
		w.fileTitle(t.comps[f.comp]+"-impl-"+pad(f.seq, 3), "Implementation: "+t.comps[f.comp]+", part "+strconv.Itoa(f.seq))
		for _, u := range units {
			w.placed(u)
			w.prosePart(0, 0.25)
		}
	case fResults:
		w.resultsFile(f, units)
	case fWaivers:
		w.fileTitle(t.comps[f.comp]+"-waivers-"+pad(f.seq, 3), "Waivers: "+t.comps[f.comp]+", part "+strconv.Itoa(f.seq))
		w.para(0, 1, 2)
		for _, u := range units {
			w.placed(u)
			w.prosePart(0, 0.3)
		}
	case fDense:
		for _, u := range units {
			w.node(0, u)
		}
	}
	return w.b, w.defects
}

// systemFile writes a file of system requirements, in sections of about
// eight.
func (w *renderer) systemFile(f *fileSpec, units []unit) {
	w.fileTitle("sys-"+pad(f.seq, 3), "System requirements, part "+strconv.Itoa(f.seq))
	for j, u := range units {
		if j%8 == 0 && w.r.chance(0.7) {
			w.titleS(pick(&w.r, areas)+" ("+w.t.reqs[u.idx].id+" onwards)", '-')
			w.para(0, 1, 3)
		}
		w.req(0, u.idx)
		w.prosePart(0, 0.6)
	}
}

// softwareFile writes a file of a component's software requirements: a
// section per requirement, its refinements in it, a few under a
// subsection of their own.
func (w *renderer) softwareFile(f *fileSpec, units []unit) {
	t := w.t
	name := capital(t.comps[f.comp])
	w.fileTitle(t.comps[f.comp]+"-"+pad(f.seq, 3), name+" software requirements, part "+strconv.Itoa(f.seq))
	inSection := false
	for _, u := range units {
		q := &t.reqs[u.idx]
		if q.level == 1 {
			w.tmp = t.appendReqTitle(append(append(w.tmp[:0], q.id...), ": "...), u.idx)
			w.title(w.tmp, '-')
			inSection = true
			if w.r.chance(0.5) {
				w.para(0, 1, 3)
			}
		} else if inSection && w.r.chance(0.08) {
			w.tmp = t.appendReqTitle(append(w.tmp[:0], "Details of "...), u.idx)
			w.title(w.tmp, '~')
		}
		w.placed(u)
		w.prosePart(0, 0.7)
	}
}

// testsFile writes a file of a component's test specifications, in
// groups of ten.
func (w *renderer) testsFile(f *fileSpec, units []unit) {
	t := w.t
	w.fileTitle(t.comps[f.comp]+"-tests-"+pad(f.seq, 3), "Test specifications: "+t.comps[f.comp]+", part "+strconv.Itoa(f.seq))
	for j, u := range units {
		if j%10 == 0 {
			w.titleS("Group "+strconv.Itoa(j/10+1)+": "+pick(&w.r, objects), '-')
		}
		w.placed(u)
		w.prosePart(0, 0.25)
	}
}

// resultsFile writes a batch of a component's outcomes on one
// configuration, under a line that names the pipeline run.
func (w *renderer) resultsFile(f *fileSpec, units []unit) {
	t := w.t
	cfg := Configs[f.config]
	w.fileTitle("results-"+cfg+"-"+t.comps[f.comp]+"-"+pad(f.seq, 3),
		"Results: "+t.comps[f.comp]+" on "+cfg+", batch "+strconv.Itoa(f.seq))
	w.line(0, "Pipeline run "+strconv.Itoa(1000+w.r.intn(9000))+" on 2026-11-28, commit ``"+
		strconv.FormatUint(w.r.next()>>24, 16)+"``.")
	w.nl()
	if w.r.chance(0.5) {
		w.table(0)
	}
	for _, u := range units {
		w.placed(u)
		w.prosePart(0, 0.12)
	}
}

// ---- low-level writing ----

func (w *renderer) sp(n int) {
	for n > len(spaces) {
		w.b = append(w.b, spaces...)
		n -= len(spaces)
	}
	w.b = append(w.b, spaces[:n]...)
}

func (w *renderer) nl() { w.b = append(w.b, '\n') }

func (w *renderer) line(ind int, s string) {
	w.sp(ind)
	w.b = append(w.b, s...)
	w.b = append(w.b, '\n')
}

// lineNo is the 1-based line the next byte goes on.
func (w *renderer) lineNo() int {
	w.lines += bytes.Count(w.b[w.lineOff:], []byte{'\n'})
	w.lineOff = len(w.b)
	return w.lines + 1
}

func (w *renderer) defect(code, id, what string, line int) {
	w.defects = append(w.defects, Defect{Code: code, File: w.path, Line: line, ID: id, What: what})
}

// wrap writes text as lines of at most 79 columns, the first starting
// with first (a list marker, or ""), the others indented to match.
func (w *renderer) wrap(ind int, first string, text []byte) {
	width := max(79-ind-len(first), 30)
	w.sp(ind)
	w.b = append(w.b, first...)
	for {
		if len(text) <= width {
			w.b = append(w.b, text...)
			w.nl()
			return
		}
		cut := bytes.LastIndexByte(text[:width+1], ' ')
		if cut <= 0 {
			cut = bytes.IndexByte(text, ' ')
			if cut < 0 {
				w.b = append(w.b, text...)
				w.nl()
				return
			}
		}
		w.b = append(w.b, text[:cut]...)
		w.nl()
		text = text[cut+1:]
		w.sp(ind + len(first))
	}
}

// wrapS wraps a string.
func (w *renderer) wrapS(ind int, first, text string) {
	w.tmp = append(w.tmp[:0], text...)
	w.wrap(ind, first, w.tmp)
}

// sentences sets w.tmp to lo to hi sentences from the pool.
func (w *renderer) sentences(lo, hi int) []byte {
	w.tmp = w.tmp[:0]
	return w.addSentences(lo, hi)
}

// addSentences appends lo to hi sentences from the pool to w.tmp.
func (w *renderer) addSentences(lo, hi int) []byte {
	for i := range lo + w.r.intn(hi-lo+1) {
		if i > 0 {
			w.tmp = append(w.tmp, ' ')
		}
		w.tmp = append(w.tmp, w.t.pool[w.r.intn(len(w.t.pool))]...)
	}
	return w.tmp
}

func (w *renderer) para(ind, lo, hi int) {
	w.wrap(ind, "", w.sentences(lo, hi))
	w.nl()
}

func (w *renderer) title(s []byte, ch byte) {
	w.b = append(w.b, s...)
	w.nl()
	for range len(s) {
		w.b = append(w.b, ch)
	}
	w.nl()
	w.nl()
}

func (w *renderer) titleS(s string, ch byte) {
	w.tmp = append(w.tmp[:0], s...)
	w.title(w.tmp, ch)
}

func (w *renderer) fileTitle(label, s string) {
	if w.r.chance(0.5) {
		w.line(0, ".. _"+label+":")
		w.nl()
	}
	bar := strings.Repeat("=", len(s)+2)
	w.line(0, bar)
	w.line(0, " "+s)
	w.line(0, bar)
	w.nl()
	w.para(0, 2, 4)
}

// ---- prose ----

// prosePart writes, with a probability scaled by weight, a few blocks of
// prose between two nodes.
func (w *renderer) prosePart(ind int, weight float64) {
	if !w.prose {
		return
	}
	for range 3 {
		if !w.r.chance(0.55 * weight) {
			return
		}
		w.block(ind)
	}
}

func (w *renderer) block(ind int) {
	switch x := w.r.intn(100); {
	case x < 40:
		w.para(ind, 1, 4)
	case x < 50:
		w.bullets(ind, "- ")
	case x < 55:
		w.bullets(ind, "#. ")
	case x < 61:
		w.codeBlock(ind)
	case x < 67:
		w.literal(ind)
	case x < 76:
		w.admonition(ind)
	case x < 83:
		w.table(ind)
	case x < 88:
		w.comment(ind)
	case x < 93:
		w.fields(ind)
	default:
		w.definitions(ind)
	}
}

func (w *renderer) bullets(ind int, marker string) {
	for range 2 + w.r.intn(3) {
		w.wrap(ind, marker, w.sentences(1, 1))
	}
	w.nl()
}

func (w *renderer) codeBlock(ind int) {
	lang := pick(&w.r, langs)
	w.line(ind, ".. code-block:: "+lang)
	if w.r.chance(0.3) {
		w.line(ind+3, pick(&w.r, []string{":class: example", ":number-lines:"}))
	}
	w.nl()
	for _, l := range snippets[lang] {
		if l == "" {
			w.nl()
		} else {
			w.line(ind+3, l)
		}
	}
	w.nl()
}

func (w *renderer) literal(ind int) {
	if w.r.chance(0.2) {
		w.para(ind, 1, 2)
		w.line(ind, "::")
	} else {
		w.line(ind, pick(&w.r, []string{"The reference run prints::", "For example::", "The log reads::", "A typical session::"}))
	}
	w.nl()
	lines := snippets["console"]
	if w.r.chance(0.5) {
		lines = logLines
	}
	for _, l := range lines[:2+w.r.intn(len(lines)-1)] {
		w.line(ind+3, strings.ReplaceAll(l, "\t", "    "))
	}
	w.nl()
}

func (w *renderer) admonition(ind int) {
	if w.r.chance(0.2) {
		w.line(ind, ".. admonition:: Review status")
	} else {
		w.line(ind, ".. "+pick(&w.r, admonitions)+"::")
	}
	w.nl()
	w.para(ind+3, 1, 3)
}

func (w *renderer) comment(ind int) {
	w.line(ind, ".. TODO: "+lowerFirst(pick(&w.r, subjects))+" "+pick(&w.r, verbs)+" "+pick(&w.r, objects)+";")
	w.line(ind+3, "revisit after the next review. Owner: team-"+pick(&w.r, compBase)+".")
	w.nl()
}

func (w *renderer) fields(ind int) {
	w.line(ind, ":Owner: team-"+pick(&w.r, compBase))
	w.line(ind, ":Priority: "+pick(&w.r, []string{"high", "medium", "low"}))
	w.wrap(ind, ":Rationale: ", w.sentences(1, 1))
	w.nl()
}

func (w *renderer) definitions(ind int) {
	for range 1 + w.r.intn(2) {
		w.line(ind, capital(pick(&w.r, objects)))
		w.wrap(ind+3, "", w.sentences(1, 2))
	}
	w.nl()
}

// table writes a simple table, a grid table or a list table of results
// per configuration, ASCII only so that columns line up in any width.
func (w *renderer) table(ind int) {
	rows := 2 + w.r.intn(3)
	cell := func(row, col int) string {
		switch col {
		case 0:
			return Configs[row%len(Configs)]
		case 1:
			return strconv.Itoa(w.r.intn(500))
		default:
			return pick(&w.r, []string{"passed", "failed", "skipped", "n/a"})
		}
	}
	head := []string{"Configuration", "Cases", "Worst result"}
	data := [][]string{head}
	for i := range rows {
		data = append(data, []string{cell(i, 0), cell(i, 1), cell(i, 2)})
	}
	width := []int{14, 6, 12}
	switch w.r.intn(3) {
	case 0:
		rule := strings.Repeat("=", width[0]) + "  " + strings.Repeat("=", width[1]) + "  " + strings.Repeat("=", width[2])
		w.line(ind, rule)
		for i, row := range data {
			w.line(ind, strings.TrimRight(fmtRow(row, width, "  ", "", ""), " "))
			if i == 0 {
				w.line(ind, rule)
			}
		}
		w.line(ind, rule)
	case 1:
		rule := func(c string) string {
			return "+" + strings.Repeat(c, width[0]+2) + "+" + strings.Repeat(c, width[1]+2) + "+" + strings.Repeat(c, width[2]+2) + "+"
		}
		w.line(ind, rule("-"))
		for i, row := range data {
			w.line(ind, fmtRow(row, width, " | ", "| ", " |"))
			if i == 0 {
				w.line(ind, rule("="))
			} else {
				w.line(ind, rule("-"))
			}
		}
	default:
		w.line(ind, ".. list-table:: Outcomes per configuration")
		w.line(ind+3, ":header-rows: 1")
		w.nl()
		for _, row := range data {
			for j, c := range row {
				if j == 0 {
					w.line(ind+3, "* - "+c)
				} else {
					w.line(ind+3, "  - "+c)
				}
			}
		}
	}
	w.nl()
}

func fmtRow(row []string, width []int, sep, open, close string) string {
	var sb strings.Builder
	sb.WriteString(open)
	for i, c := range row {
		if i > 0 {
			sb.WriteString(sep)
		}
		sb.WriteString(c)
		sb.WriteString(spaces[:width[i]-len(c)])
	}
	sb.WriteString(close)
	return sb.String()
}

func (w *renderer) index() {
	w.fileTitle("index", "Product documentation")
	w.para(0, 3, 5)
	w.titleS("How this tree is organised", '-')
	for _, s := range []string{
		"``system/``: system requirements (``.. sys::``).",
		"``software/<component>/``: software requirements (``.. req::``) and the detailed requirements that refine them (``.. sreq::``).",
		"``tests/<component>/``: test specifications (``.. test::``).",
		"``impl/<component>/``: implementations (``.. impl::``) with their source paths.",
		"``results/<configuration>/``: outcomes (``.. outcome::``) of each configuration, and ``results/waivers/``: waivers.",
	} {
		w.wrapS(0, "- ", s)
	}
	w.nl()
	w.titleS("Conventions", '-')
	for range 3 {
		w.block(0)
	}
}

// ---- nodes ----

// placed writes a node at the top level of a file, sometimes inside a
// note, a list item or a container.
func (w *renderer) placed(u unit) {
	if !w.prose {
		w.node(0, u)
		return
	}
	switch x := w.r.intn(100); {
	case x < 4:
		w.line(0, ".. note::")
		w.nl()
		w.para(3, 1, 2)
		w.node(3, u)
	case x < 8 && u.kind != kOut:
		w.line(0, pick(&w.r, []string{"Agreed in the review:", "Open points and decisions:", "From the design meeting:"}))
		w.nl()
		w.wrap(0, "- ", w.sentences(1, 1))
		w.tmp = append(bytes.TrimSuffix(w.sentences(1, 1), []byte(".")), ", recorded as:"...)
		w.wrap(0, "- ", w.tmp)
		w.nl()
		w.node(2, u)
		w.wrap(0, "- ", w.sentences(1, 1))
		w.nl()
	case x < 10 && u.kind != kOut:
		w.line(0, ".. container:: "+pick(&w.r, []string{"detail", "draft", "reviewed"}))
		w.nl()
		w.node(3, u)
	default:
		w.node(0, u)
	}
}

func (w *renderer) node(ind int, u unit) {
	switch u.kind {
	case kReq:
		w.req(ind, u.idx)
	case kTest:
		w.test(ind, u.idx)
	case kImpl:
		w.impl(ind, u.idx)
	case kOut:
		w.outcome(ind, u.idx)
	case kWaiver:
		w.waiver(ind, u.idx)
	}
}

// directive writes the directive line, with a long title sometimes
// continued on a second line.
func (w *renderer) directive(ind int, name string, title []byte) {
	w.sp(ind)
	w.b = append(w.b, ".. "...)
	w.b = append(w.b, name...)
	w.b = append(w.b, "::"...)
	if len(title) == 0 {
		w.nl()
		return
	}
	w.b = append(w.b, ' ')
	if len(title) > 40 && w.r.chance(0.05) {
		if cut := bytes.IndexByte(title[len(title)/2:], ' '); cut >= 0 {
			cut += len(title) / 2
			w.b = append(w.b, title[:cut]...)
			w.nl()
			w.sp(ind + 3)
			w.b = append(w.b, title[cut+1:]...)
			w.nl()
			return
		}
	}
	w.b = append(w.b, title...)
	w.nl()
}

func (w *renderer) opt(ind int, name, value string) {
	w.sp(ind)
	w.b = append(w.b, ':')
	w.b = append(w.b, name...)
	w.b = append(w.b, ':')
	if value != "" {
		w.b = append(w.b, ' ')
		w.b = append(w.b, value...)
	}
	w.nl()
}

// id writes the :id: option, and notes a planted duplicate.
func (w *renderer) id(ind int, kind uint8, idx int32, id string) {
	if w.t.defects != nil {
		if own, ok := w.t.dupOf[ref(kind, idx)]; ok {
			w.defect("duplicate-id", id, own, w.lineNo())
		}
	}
	w.opt(ind, "id", id)
}

// links writes a link option. Long lists go over several lines; a few use
// other separators or a trailing one, or start on the line after the
// field marker.
func (w *renderer) links(ind int, kind uint8, idx int32, owner, name string, ls []link, target func(int32) string) {
	if len(ls) == 0 {
		return
	}
	bad := int32(-1)
	if w.t.defects != nil && w.t.defects[ref(kind, idx)]&dTypo != 0 {
		bad = w.t.typoPos[ref(kind, idx)]
	}
	sep := ", "
	if w.r.chance(0.02) {
		sep = pick(&w.r, []string{"; ", " | ", ","})
	}
	multi := len(ls) >= 3 || (len(ls) == 2 && w.r.chance(0.3))
	w.sp(ind)
	w.b = append(w.b, ':')
	w.b = append(w.b, name...)
	w.b = append(w.b, ':')
	cont := ind + len(name) + 3
	if w.r.chance(0.02) {
		w.nl()
		cont = ind + 3
		w.sp(cont)
		multi = false
	} else {
		w.b = append(w.b, ' ')
	}
	for i, l := range ls {
		if i > 0 {
			w.b = append(w.b, strings.TrimRight(sep, " ")...)
			if multi {
				w.nl()
				w.sp(cont)
			} else if sep[len(sep)-1] == ' ' {
				w.b = append(w.b, ' ')
			}
		}
		id := target(l.to)
		if int32(i) == bad {
			id = typo(id)
			w.defect("unresolved-link", owner, id, w.lineNo())
		}
		w.b = append(w.b, id...)
		if l.state != 0 {
			w.b = append(w.b, " ("...)
			w.b = append(w.b, stateNames[l.state]...)
			w.b = append(w.b, ')')
		}
	}
	if w.r.chance(0.01) {
		w.b = append(w.b, ',')
	}
	w.nl()
}

// unknown writes a planted unknown option: a misspelt known one with the
// same value, or one the default config does not allow.
func (w *renderer) unknown(ind int, kind uint8, idx int32, owner, misspelt, value string) {
	if w.t.defects == nil || w.t.defects[ref(kind, idx)]&dUnknown == 0 {
		return
	}
	name, v := misspelt, value
	if idx%2 == 1 || value == "" {
		name, v = "owner", "team-"+pick(&w.r, compBase)
	}
	w.defect("unknown-option", owner, name, w.lineNo())
	w.opt(ind, name, v)
}

func (t *Tree) reqID(i int32) string  { return t.reqs[i].id }
func (t *Tree) implID(i int32) string { return t.impls[i].id }
func (t *Tree) outID(i int32) string  { return t.outs[i].id }

// appendReqTitle appends the title of requirement i: ASCII, starting
// with a capital letter.
func (t *Tree) appendReqTitle(b []byte, i int32) []byte {
	r := newRNG(t.seed, 10, uint64(i))
	q := &t.reqs[i]
	if q.level == 0 {
		return append(append(append(append(append(b, pick(&r, areas)...), ": "...), pick(&r, objects)...), ' '), pick(&r, quals)...)
	}
	b = append(b, t.comps[q.comp]...)
	b[len(b)-len(t.comps[q.comp])] -= 'a' - 'A'
	if q.level == 1 {
		return append(append(b, " handling of "...), pick(&r, objects)...)
	}
	b = append(append(append(append(b, ' '), pick(&r, verbs)...), ' '), pick(&r, objects)...)
	if r.chance(0.3) {
		b = append(append(b, ' '), pick(&r, quals)...)
	}
	return b
}

func (w *renderer) req(ind int, i int32) {
	t := w.t
	q := &t.reqs[i]
	oi := ind + 3
	w.tmp = t.appendReqTitle(w.tmp[:0], i)
	w.directive(ind, levelNames[q.level], w.tmp)
	w.id(oi, kReq, i, q.id)
	w.links(oi, kReq, i, q.id, "refines", t.linksOf(q.refines), t.reqID)
	if ls := t.linksOf(q.refines); len(ls) > 0 {
		w.unknown(oi, kReq, i, q.id, "refine", t.reqID(ls[0].to))
	}
	w.nl()
	r := newRNG(t.seed, 11, uint64(i))
	w.tmp = append(append(append(w.tmp[:0], "The "...), t.comps[q.comp]...), " shall "...)
	w.tmp = append(append(append(append(append(w.tmp, base(pick(&r, verbs))...), ' '), pick(&r, objects)...), ' '), pick(&r, quals)...)
	w.wrap(oi, "", append(w.tmp, '.'))
	w.nl()
	if w.prose {
		switch x := w.r.intn(100); {
		case x < 35:
			w.para(oi, 1, 3)
		case x < 45:
			w.fields(oi)
		case x < 55:
			w.line(oi, "This holds when:")
			w.nl()
			w.bullets(oi, "- ")
		case x < 58:
			w.codeBlock(oi)
		}
	}
	for _, ti := range q.inline {
		w.test(oi, ti)
	}
}

func (w *renderer) test(ind int, i int32) {
	t := w.t
	tn := &t.tests[i]
	oi := ind + 3
	w.tmp = t.appendReqTitle(append(w.tmp[:0], "Verify "...), tn.subject)
	w.tmp[len("Verify ")] += 'a' - 'A'
	w.directive(ind, "test", w.tmp)
	w.id(oi, kTest, i, tn.id)
	w.links(oi, kTest, i, tn.id, "verifies", t.linksOf(tn.verifies), t.reqID)
	if tn.cases {
		pkg := "github.com/acme/product/internal/" + t.comps[tn.comp]
		w.opt(oi, "cases", pkg+".Test"+strings.ReplaceAll(tn.id[3:], "-", "_")+"/*")
	}
	w.unknown(oi, kTest, i, tn.id, "verfies", "")
	w.nl()
	if !w.prose {
		w.line(oi, "Run the fixture and compare the report.")
		w.nl()
		return
	}
	if w.r.chance(0.6) {
		for range 2 + w.r.intn(3) {
			w.wrapS(oi, "#. ", pick(&w.r, steps))
		}
		w.nl()
	}
	w.tmp = append(w.tmp[:0], "Expected: "...)
	w.addSentences(1, 2)
	w.tmp[len("Expected: ")] = lowerFirst(string(w.tmp[len("Expected: ")]))[0]
	w.wrap(oi, "", w.tmp)
	w.nl()
	if w.r.chance(0.08) {
		w.codeBlock(oi)
	}
}

// implSources are the word of implementation i's title and the source
// files its :source: names (WriteDir writes them too, so that :source:
// matches real files as in a real project).
func (t *Tree) implSources(i int32) (word string, src []string) {
	im := &t.impls[i]
	r := newRNG(t.seed, 12, uint64(i))
	word = pick(&r, fileWords)
	for range im.sources {
		dir := "internal/" + t.comps[im.comp]
		if r.chance(0.2) {
			dir = "cmd/" + t.comps[im.comp]
		}
		src = append(src, dir+"/"+pick(&r, fileWords)+".go")
	}
	return word, src
}

func (w *renderer) impl(ind int, i int32) {
	t := w.t
	im := &t.impls[i]
	oi := ind + 3
	word, src := t.implSources(i)
	w.tmp = append(append(append(append(w.tmp[:0], capital(t.comps[im.comp])...), ' '), word...), " module"...)
	w.directive(ind, "impl", w.tmp)
	w.id(oi, kImpl, i, im.id)
	w.links(oi, kImpl, i, im.id, "implements", t.linksOf(im.implements), t.reqID)
	if len(src) > 1 && w.r.chance(0.5) {
		w.line(oi, ":source: "+src[0]+",")
		w.line(oi+len(":source: "), strings.Join(src[1:], ", "))
	} else {
		w.opt(oi, "source", strings.Join(src, ", "))
	}
	w.unknown(oi, kImpl, i, im.id, "sources", strings.Join(src, ", "))
	w.nl()
	if !w.prose {
		w.line(oi, "See the package documentation.")
		w.nl()
		return
	}
	w.para(oi, 1, 3)
	if w.r.chance(0.1) {
		w.codeBlock(oi)
	}
}

func (w *renderer) outcome(ind int, i int32) {
	t := w.t
	o := &t.outs[i]
	oi := ind + 3
	tid := t.tests[o.test].id
	w.tmp = append(append(append(w.tmp[:0], tid...), " on "...), Configs[o.config]...)
	w.directive(ind, "outcome", w.tmp)
	w.id(oi, kOut, i, o.id)
	w.opt(oi, "confirms", tid)
	w.links(oi, kOut, i, o.id, "witnesses", t.linksOf(o.witnesses), t.implID)
	w.opt(oi, "result", results[o.result])
	w.opt(oi, "config", Configs[o.config])
	w.nl()
	w.line(oi, "Duration "+strconv.Itoa(w.r.intn(3000))+" ms.")
	w.nl()
	if o.result == 1 || o.result == 3 {
		w.line(oi, "Failure log::")
		w.nl()
		for _, l := range logLines[:2+w.r.intn(3)] {
			w.line(oi+3, strings.ReplaceAll(l, "\t", "    "))
		}
		w.nl()
	}
}

func (w *renderer) waiver(ind int, i int32) {
	t := w.t
	wv := &t.waivers[i]
	oi := ind + 3
	ls := t.linksOf(wv.excuses)
	w.tmp = append(append(w.tmp[:0], "Known failure of "...), t.tests[t.outs[ls[0].to].test].id...)
	w.directive(ind, "waiver", w.tmp)
	w.id(oi, kWaiver, i, wv.id)
	w.links(oi, kWaiver, i, wv.id, "excuses", ls, t.outID)
	if wv.expires != "" {
		w.opt(oi, "expires", wv.expires)
	}
	w.nl()
	w.line(oi, "Tracked in issue #"+strconv.Itoa(100+w.r.intn(9000))+".")
	w.nl()
	if w.prose {
		w.para(oi, 1, 2)
	}
}
