// Package gen builds synthetic documentation trees for seg's benchmarks:
// requirements on three refinement levels, test specifications,
// implementations, outcomes under several configurations and waivers,
// spread over many reStructuredText files with prose between the nodes.
//
// A tree is a pure function of its options: the same options give the same
// bytes, in any order the files are rendered, on any Go release.
package gen

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// RefDate is the evaluation date the waiver expiry dates are relative to:
// "expired" waivers expire before it, the others on it or after it.
const RefDate = "2026-11-29"

// Configs are the configurations outcomes run under.
var Configs = []string{"linux-amd64", "linux-arm64", "darwin-arm64", "windows-amd64"}

// Options say what tree to build.
type Options struct {
	N    int    // requirement directives (sys + req + sreq); at least 3
	Seed uint64 // the same seed gives the same bytes
	// Defects plants a few unresolved links, duplicate IDs and unknown
	// options. Without it the tree has none of these (and no other error).
	Defects bool
	// DefectRate is the number of planted defects per requirement
	// (default 0.002), at least one of each kind.
	DefectRate  float64
	PerFile     int // nodes per file (default 50)
	FilesPerDir int // files per folder before a folder is split in parts (default 64)
}

// DenseOptions ask for a directive-dense tree of about MB megabytes
// (10^6 bytes) in exactly Files files, for the parser's throughput
// benchmark: nodes back to back, short bodies, no prose.
type DenseOptions struct {
	MB          float64
	Files       int
	Seed        uint64
	FilesPerDir int // default 64
}

// Defect is one planted defect, as seg should report it.
type Defect struct {
	Code string `json:"code"`
	File string `json:"file"`
	Line int    `json:"line"`
	ID   string `json:"id"`             // the node that carries it
	What string `json:"what,omitempty"` // the duplicated ID, the bad target, the unknown option
}

// Node kinds, as unit categories.
const (
	kReq uint8 = iota
	kTest
	kImpl
	kOut
	kWaiver
)

var levelNames = [3]string{"sys", "req", "sreq"}

type link struct {
	to    int32
	state uint8 // 0 active, 1 suspect, 2 retired
}

var stateNames = [3]string{"", "suspect", "retired"}

type span struct{ lo, hi int32 } // a range of Tree.links

type reqNode struct {
	id      string
	level   uint8
	comp    int32
	refines span
	inline  []int32 // tests rendered inside this requirement's body
}

type testNode struct {
	id       string
	comp     int32
	verifies span
	cases    bool
	inline   bool
	subject  int32 // the first requirement it verifies
	outcomes span  // range of Tree.outs
}

type implNode struct {
	id         string
	comp       int32
	implements span
	sources    uint8
}

type outNode struct {
	id        string
	test      int32
	config    uint8
	result    uint8 // index in results
	witnesses span  // targets are implementation indexes
}

var results = [4]string{"passed", "failed", "skipped", "error"}

type waiverNode struct {
	id      string
	comp    int32
	excuses span // targets are outcome indexes
	expires string
}

type unit struct {
	kind uint8
	idx  int32
}

type fileCat uint8

const (
	fIndex fileCat = iota
	fSystem
	fSoftware
	fTests
	fImpl
	fResults
	fWaivers
	fDense
)

type fileSpec struct {
	path   string
	cat    fileCat
	comp   int32
	config int8
	seq    int
	lo, hi int32 // range of Tree.units
}

// Planted defects, as bits in Tree.defects.
const (
	dDup uint8 = 1 << iota
	dTypo
	dUnknown
)

// Tree is a planned tree: the graph and the layout. Render gives each
// file's bytes; it is safe to call from several goroutines.
type Tree struct {
	params      Params
	seed        uint64
	dense       bool
	perFile     int
	filesPerDir int
	root        string

	comps   []string // lower-case names; the last is "system"
	compIDs []string // upper-case, for IDs
	nSys    int
	nReq    int
	reqs    []reqNode
	tests   []testNode
	impls   []implNode
	outs    []outNode
	waivers []waiverNode
	links   []link
	units   []unit
	files   []fileSpec
	pool    []string // prose sentences
	defects map[uint64]uint8
	typoPos map[uint64]int32  // which link entry of a node is misspelt
	dupOf   map[uint64]string // a duplicate's own ID before it took another's
}

func ref(kind uint8, idx int32) uint64 { return uint64(kind)<<32 | uint64(uint32(idx)) }

// New plans a tree of opt.N requirements.
func New(opt Options) (*Tree, error) {
	if opt.N < 3 {
		return nil, errors.New("-n must be at least 3")
	}
	if opt.N > 50_000_000 {
		return nil, errors.New("-n must be at most 50,000,000")
	}
	if opt.PerFile == 0 {
		opt.PerFile = 50
	}
	if opt.FilesPerDir == 0 {
		opt.FilesPerDir = 64
	}
	if opt.PerFile < 1 || opt.FilesPerDir < 1 {
		return nil, errors.New("-per-file and -files-per-dir must be positive")
	}
	if opt.DefectRate == 0 {
		opt.DefectRate = 0.002
	}
	if opt.DefectRate < 0 || opt.DefectRate > 0.1 {
		return nil, errors.New("-defect-rate must be between 0 and 0.1")
	}
	t := newTree(opt.N, opt.Seed, opt.PerFile, opt.FilesPerDir, false)
	t.params = Params{N: opt.N, Seed: opt.Seed, Defects: opt.Defects, PerFile: opt.PerFile, FilesPerDir: opt.FilesPerDir}
	if opt.Defects {
		t.params.DefectRate = opt.DefectRate
		t.plantDefects(opt.DefectRate)
	}
	t.layout()
	return t, nil
}

// NewDense plans a directive-dense tree of about opt.MB megabytes in
// exactly opt.Files files.
func NewDense(opt DenseOptions) (*Tree, error) {
	if opt.MB <= 0 || opt.MB > 10_000 {
		return nil, errors.New("-dense-mb must be in (0, 10000]")
	}
	if opt.Files < 1 {
		return nil, errors.New("-files must be positive")
	}
	if opt.FilesPerDir == 0 {
		opt.FilesPerDir = 64
	}
	if opt.FilesPerDir < 1 {
		return nil, errors.New("-files-per-dir must be positive")
	}
	target := opt.MB * 1e6
	// Plan once at a guessed size, measure, and plan again at the size the
	// measured bytes per requirement give.
	plan := func(n int) *Tree {
		t := newTree(n, opt.Seed, 50, opt.FilesPerDir, true)
		t.layoutDense(opt.Files)
		t.params = Params{N: n, Seed: opt.Seed, DenseMB: opt.MB, Files: opt.Files, FilesPerDir: opt.FilesPerDir}
		return t
	}
	n := max(3, int(target/denseBytesPerReq))
	for range 2 {
		t := plan(n)
		size := t.Size()
		next := max(3, int(math.Round(float64(n)*target/float64(size))))
		if next == n || math.Abs(float64(size)-target) < target*0.002 {
			return t, nil
		}
		n = next
	}
	return plan(n), nil
}

// Params are the options a tree was planned with, as the manifest
// records them.
type Params struct {
	N           int     `json:"n"`
	Seed        uint64  `json:"seed"`
	Defects     bool    `json:"defects"`
	DefectRate  float64 `json:"defect_rate,omitempty"`
	PerFile     int     `json:"per_file,omitempty"`
	FilesPerDir int     `json:"files_per_dir"`
	DenseMB     float64 `json:"dense_mb,omitempty"`
	Files       int     `json:"files,omitempty"`
}

// denseBytesPerReq is a first guess only; NewDense measures.
const denseBytesPerReq = 700

func newTree(n int, seed uint64, perFile, filesPerDir int, dense bool) *Tree {
	t := &Tree{seed: seed, dense: dense, perFile: perFile, filesPerDir: filesPerDir, root: "docs"}
	if dense {
		t.root = "dense"
	}
	r := newRNG(seed, 1)
	t.pool = make([]string, 1024)
	for i := range t.pool {
		t.pool[i] = sentence(&r)
	}
	t.build(n, &r)
	return t
}

// Children per parent: several on average, between one and eight.
func spread(r *rng, nParents, nChildren int) []int32 {
	w := make([]int, nParents)
	total := 0
	for i := range w {
		w[i] = r.intn(7)
		total += w[i]
	}
	parent := make([]int32, 0, nChildren)
	rest := nChildren - nParents
	cum, prev := 0, 0
	for p := range nParents {
		cum += w[p]
		upto := rest * (p + 1) / nParents
		if total > 0 {
			upto = int(int64(rest) * int64(cum) / int64(total))
		}
		for range 1 + upto - prev {
			parent = append(parent, int32(p))
		}
		prev = upto
	}
	return parent
}

func (t *Tree) addLinks(ls ...link) span {
	lo := int32(len(t.links))
	t.links = append(t.links, ls...)
	return span{lo, int32(len(t.links))}
}

func (t *Tree) linksOf(s span) []link { return t.links[s.lo:s.hi] }

func (t *Tree) build(n int, r *rng) {
	nSys := max(1, (n+10)/21)
	nReq := max(1, (4*n+10)/21)
	nSreq := n - nSys - nReq
	nComp := min(max(n/1000, 3), 64, nReq)
	t.nSys, t.nReq = nSys, nReq
	t.nameComponents(nComp)

	// Requirements: sys, then req, then sreq. A req's component follows
	// its position, so each component's reqs and sreqs are contiguous.
	t.reqs = make([]reqNode, n)
	// Room for what the steps below append (measured ratios, with slack),
	// so that large trees do not pay for growing these slices.
	t.tests = make([]testNode, 0, n*62/100+16)
	t.impls = make([]implNode, 0, n*44/100+16)
	t.outs = make([]outNode, 0, n*136/100+16)
	t.links = make([]link, 0, n*43/10+16)
	ids := &idMaker{compIDs: t.compIDs, width: max(3, digits(n)), perComp: make([]int, len(t.comps))}
	t.addRequirements(r, ids, nSys, nReq, nSreq, nComp)
	leaves := int32(nSys + nReq)
	ids.restart()
	implOf := t.addImplementations(r, ids, leaves)
	ids.restart()
	t.addTests(r, ids, leaves)
	t.addOutcomes(r, leaves, implOf)
	ids.restart()
	t.addWaivers(r, ids)
}

// nameComponents names nComp components, then "system", the component
// of the system requirements.
func (t *Tree) nameComponents(nComp int) {
	for c := range nComp {
		name := compBase[c%len(compBase)]
		if c >= len(compBase) {
			name += strconv.Itoa(c/len(compBase) + 1)
		}
		t.comps = append(t.comps, name)
	}
	t.comps = append(t.comps, "system")
	for _, c := range t.comps {
		t.compIDs = append(t.compIDs, upper(c))
	}
}

// idMaker numbers the IDs of one kind of node within each component:
// PREFIX-COMP-001, PREFIX-COMP-002, ...
type idMaker struct {
	compIDs []string
	width   int
	perComp []int
}

// next is the next ID with prefix in component c.
func (m *idMaker) next(prefix string, c int32) string {
	m.perComp[c]++
	return prefix + m.compIDs[c] + "-" + pad(m.perComp[c], m.width)
}

// restart numbers the next kind from 1 again.
func (m *idMaker) restart() { clear(m.perComp) }

// addRequirements fills t.reqs: the system requirements, then the
// requirements refining them, then the software requirements refining
// those, with a few refining two parents.
func (t *Tree) addRequirements(r *rng, ids *idMaker, nSys, nReq, nSreq, nComp int) {
	reqParent := spread(r, nSys, nReq)
	sreqParent := spread(r, nReq, nSreq)
	sysComp := int32(nComp)
	for i := range nSys {
		t.reqs[i] = reqNode{id: "SYS-" + pad(i+1, ids.width), level: 0, comp: sysComp}
	}
	for j := range nReq {
		p := int32(reqParent[j])
		refs := []link{{to: p}}
		if r.chance(0.02) {
			if q := p + 1; int(q) < nSys {
				refs = append(refs, link{to: q})
			} else if p > 0 {
				refs = append(refs, link{to: p - 1})
			}
		}
		c := int32(j * nComp / nReq)
		t.reqs[nSys+j] = reqNode{id: ids.next("REQ-", c), level: 1, comp: c, refines: t.addLinks(refs...)}
	}
	ids.restart()
	for k := range nSreq {
		p := int32(nSys) + sreqParent[k]
		refs := []link{{to: p}}
		if r.chance(0.03) {
			if q := p + 1; int(q) < nSys+nReq {
				refs = append(refs, link{to: q})
			} else if int(p) > nSys {
				refs = append(refs, link{to: p - 1})
			}
		}
		c := t.reqs[p].comp
		t.reqs[nSys+nReq+k] = reqNode{id: ids.next("SREQ-", c), level: 2, comp: c, refines: t.addLinks(refs...)}
	}
}

// addImplementations adds the implementations: most leaves have one;
// some implement several. implOf is the implementation of each leaf, -1
// for none.
func (t *Tree) addImplementations(r *rng, ids *idMaker, leaves int32) (implOf []int32) {
	n := len(t.reqs)
	implOf = make([]int32, n)
	for i := range implOf {
		implOf[i] = -1
	}
	var ls []link // scratch: addLinks copies
	for k := leaves; int(k) < n; {
		if r.chance(0.02) {
			k++
			continue
		}
		c := t.reqs[k].comp
		size := []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 4, 4}[r.intn(20)]
		ls = ls[:0]
		for ; len(ls) < size && int(k) < n && t.reqs[k].comp == c; k++ {
			l := link{to: k}
			if r.chance(0.015) {
				l.state = 1
			}
			ls = append(ls, l)
			implOf[k] = int32(len(t.impls))
		}
		src := uint8([]int{1, 1, 1, 1, 1, 1, 2, 2, 2, 3}[r.intn(10)])
		t.impls = append(t.impls, implNode{id: ids.next("IMPL-", c), comp: c, implements: t.addLinks(ls...), sources: src})
	}
	return implOf
}

// testLinkState is the state of a verifies link: mostly 0, 1 in 50 of
// them 1, 1 in 100 of them 2.
func testLinkState(r *rng) uint8 {
	switch x := r.intn(100); {
	case x < 2:
		return 1
	case x < 3:
		return 2
	}
	return 0
}

// addTests adds the test specifications: most verify one leaf, some
// several; a few leaves have none; a few tests verify a non-leaf
// (acceptance tests).
func (t *Tree) addTests(r *rng, ids *idMaker, leaves int32) {
	n := len(t.reqs)
	var ls []link // scratch: addLinks copies
	for k := leaves; int(k) < n; {
		if r.chance(0.03) {
			k++
			continue
		}
		c := t.reqs[k].comp
		size := []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3}[r.intn(20)]
		subject := k
		ls = ls[:0]
		for ; len(ls) < size && int(k) < n && t.reqs[k].comp == c; k++ {
			ls = append(ls, link{to: k, state: testLinkState(r)})
		}
		ti := int32(len(t.tests))
		tn := testNode{id: ids.next("TS-", c), comp: c, verifies: t.addLinks(ls...), cases: r.chance(0.2), subject: subject}
		if len(ls) == 1 && r.chance(0.06) {
			tn.inline = true
			t.reqs[subject].inline = append(t.reqs[subject].inline, ti)
		}
		t.tests = append(t.tests, tn)
	}
	for i := range leaves {
		if (i < int32(t.nSys) && r.chance(0.03)) || (i >= int32(t.nSys) && r.chance(0.05)) {
			c := t.reqs[i].comp
			t.tests = append(t.tests, testNode{id: ids.next("TS-", c), comp: c, verifies: t.addLinks(link{to: i, state: testLinkState(r)}), subject: i})
		}
	}
}

// addOutcomes adds the outcomes: every test runs on linux-amd64 and on
// some other configurations; mostly passed and witnessed by the
// implementation of the leaf the test bears on (implOf).
func (t *Tree) addOutcomes(r *rng, leaves int32, implOf []int32) {
	// A test of a non-leaf is witnessed by the implementation of the
	// first leaf below it.
	firstChild := make([]int32, len(t.reqs))
	for i := range firstChild {
		firstChild[i] = -1
	}
	for i := len(t.reqs) - 1; i >= t.nSys; i-- {
		firstChild[t.linksOf(t.reqs[i].refines)[0].to] = int32(i)
	}
	for ti := range t.tests {
		tn := &t.tests[ti]
		leaf := tn.subject
		for leaf < leaves && firstChild[leaf] >= 0 {
			leaf = firstChild[leaf]
		}
		lo := int32(len(t.outs))
		for ci := range Configs {
			if ci > 0 && !r.chance([]float64{1, 0.5, 0.4, 0.3}[ci]) {
				continue
			}
			res := uint8(0)
			switch x := r.intn(1000); {
			case x < 30:
				res = 1
			case x < 70 || (ci == 3 && x < 120):
				res = 2
			case x < 80:
				res = 3
			}
			var wit []link
			if !r.chance(0.02) {
				if im := implOf[leaf]; im >= 0 {
					wit = append(wit, link{to: im})
				} else if len(t.impls) > 0 {
					wit = append(wit, link{to: int32(r.intn(len(t.impls)))})
				}
				vs := t.linksOf(tn.verifies)
				if len(vs) > 1 && r.chance(0.3) {
					if im := implOf[vs[1].to]; im >= 0 && len(wit) == 1 && im != wit[0].to {
						wit = append(wit, link{to: im})
					}
				}
			}
			t.outs = append(t.outs, outNode{
				id: "RUN-" + tn.id[len("TS-"):] + "-" + Configs[ci], test: int32(ti),
				config: uint8(ci), result: res, witnesses: t.addLinks(wit...),
			})
		}
		tn.outcomes = span{lo, int32(len(t.outs))}
	}
}

// addWaivers adds the waivers: for about half of the tests with a failed
// or error outcome, excusing all of them; a few excuse an outcome that
// passed.
func (t *Tree) addWaivers(r *rng, ids *idMaker) {
	for ti := range t.tests {
		tn := &t.tests[ti]
		var bad []link
		for oi := tn.outcomes.lo; oi < tn.outcomes.hi; oi++ {
			if res := t.outs[oi].result; res == 1 || res == 3 {
				bad = append(bad, link{to: oi})
			}
		}
		if len(bad) == 0 || !r.chance(0.55) {
			if len(bad) > 0 || tn.outcomes.hi == tn.outcomes.lo || !r.chance(0.002) {
				continue
			}
			bad = append(bad, link{to: tn.outcomes.lo})
		}
		var exp string
		switch x := r.intn(20); {
		case x < 7:
		case x < 16:
			exp = "2026-" + pad(12, 2) + "-" + pad(1+r.intn(31), 2)
			if x >= 11 {
				exp = "2027-" + pad(1+r.intn(12), 2) + "-" + pad(1+r.intn(28), 2)
			}
		default:
			exp = "2026-" + pad(1+r.intn(11), 2) + "-" + pad(1+r.intn(28), 2)
		}
		t.waivers = append(t.waivers, waiverNode{id: ids.next("WVR-", tn.comp), comp: tn.comp, excuses: t.addLinks(bad...), expires: exp})
	}
}

// plantDefects marks a few nodes: duplicate IDs (a leaf takes an earlier
// leaf's ID), misspelt link targets and unknown options.
func (t *Tree) plantDefects(rate float64) {
	r := newRNG(t.seed, 2)
	each := max(1, int(math.Round(rate*float64(len(t.reqs))/3)))
	t.defects = map[uint64]uint8{}
	t.typoPos = map[uint64]int32{}
	t.dupOf = map[uint64]string{}
	// Duplicates: a requirement takes the ID of an earlier one that keeps
	// its own; prefer leaves, whose IDs nothing refines.
	lo := t.nSys + t.nReq
	if len(t.reqs)-lo < 2 {
		lo = 0
	}
	taken := map[int32]bool{}
	for tries := 0; len(t.dupOf) < each && tries < 100*each; tries++ {
		k := int32(lo + 1 + r.intn(len(t.reqs)-lo-1))
		other := int32(lo + r.intn(int(k)-lo))
		if taken[k] || taken[other] {
			continue
		}
		taken[k], taken[other] = true, true
		t.defects[ref(kReq, k)] |= dDup
		t.dupOf[ref(kReq, k)] = t.reqs[k].id // its own ID, which no node has now
		t.reqs[k].id = t.reqs[other].id
	}
	pickNode := func() (uint8, int32, span) {
		switch r.intn(3) {
		case 0:
			i := int32(t.nSys + r.intn(len(t.reqs)-t.nSys))
			return kReq, i, t.reqs[i].refines
		case 1:
			if len(t.tests) > 0 {
				i := int32(r.intn(len(t.tests)))
				return kTest, i, t.tests[i].verifies
			}
		}
		if len(t.impls) == 0 {
			i := int32(t.nSys + r.intn(len(t.reqs)-t.nSys))
			return kReq, i, t.reqs[i].refines
		}
		i := int32(r.intn(len(t.impls)))
		return kImpl, i, t.impls[i].implements
	}
	for placed, tries := 0, 0; placed < each && tries < 100*each; tries++ {
		kind, i, s := pickNode()
		if t.defects[ref(kind, i)]&(dTypo|dDup) != 0 || s.hi == s.lo {
			continue
		}
		t.defects[ref(kind, i)] |= dTypo
		t.typoPos[ref(kind, i)] = int32(r.intn(int(s.hi - s.lo)))
		placed++
	}
	for placed, tries := 0, 0; placed < each && tries < 100*each; tries++ {
		kind, i, _ := pickNode()
		if t.defects[ref(kind, i)]&dUnknown != 0 {
			continue
		}
		t.defects[ref(kind, i)] |= dUnknown
		placed++
	}
}

// typo misspells an ID so that it names no node: IDs have a fixed number
// of digits, and the typo drops one.
func typo(id string) string {
	for i := len(id) - 1; i > 0; i-- {
		if id[i] >= '0' && id[i] <= '9' && id[i-1] >= '0' && id[i-1] <= '9' {
			return id[:i] + id[i+1:]
		}
	}
	return id + "X"
}

func (t *Tree) dir(base string, seq, total int) string {
	if total <= t.filesPerDir {
		return base
	}
	return base + "/part-" + pad(seq/t.filesPerDir+1, 2)
}

// layout splits the nodes into files.
func (t *Tree) layout() {
	t.files = append(t.files, fileSpec{path: "docs/index.rst", cat: fIndex})
	groups := t.requirementGroups()
	groups = t.groupByComp(groups, fTests, 0, kTest, len(t.tests), func(i int) int32 { return t.tests[i].comp }, func(i int) bool { return t.tests[i].inline })
	groups = t.groupByComp(groups, fImpl, 0, kImpl, len(t.impls), func(i int) int32 { return t.impls[i].comp }, nil)
	for ci := range Configs {
		groups = t.groupByComp(groups, fResults, int8(ci), kOut, len(t.outs), func(i int) int32 { return t.tests[t.outs[i].test].comp },
			func(i int) bool { return int(t.outs[i].config) != ci })
	}
	groups = t.groupByComp(groups, fWaivers, 0, kWaiver, len(t.waivers), func(i int) int32 { return t.waivers[i].comp }, nil)

	t.units = make([]unit, 0, len(t.reqs)+len(t.tests)+len(t.impls)+len(t.outs)+len(t.waivers))
	for _, g := range groups {
		starts := t.fileStarts(g)
		lo := int32(len(t.units))
		t.units = append(t.units, g.units...)
		for s, start := range starts {
			end := len(g.units)
			if s+1 < len(starts) {
				end = starts[s+1]
			}
			t.files = append(t.files, fileSpec{path: t.filePath(g, s, len(starts)), cat: g.cat, comp: g.comp, config: g.config, seq: s + 1,
				lo: lo + int32(start), hi: lo + int32(end)})
		}
	}
}

// unitGroup is the units of one kind of file of one component (and one
// configuration, for results), cut into files of about perFile units.
type unitGroup struct {
	cat    fileCat
	comp   int32
	config int8
	units  []unit
	// breakAt says whether a file may end before u.
	breakAt func(u unit) bool
}

// requirementGroups are the system requirements, then per component the
// software requirements: each req followed by the sreqs it is the first
// parent of (build gives sreqs their first parents in order, and reqs
// their components in order).
func (t *Tree) requirementGroups() []unitGroup {
	nComp := len(t.comps) - 1
	var groups []unitGroup
	var us []unit
	for i := range t.nSys {
		us = append(us, unit{kReq, int32(i)})
	}
	groups = append(groups, unitGroup{cat: fSystem, comp: int32(nComp), units: us})
	k := t.nSys + t.nReq
	j := t.nSys
	for c := range nComp {
		var us []unit
		for ; j < t.nSys+t.nReq && t.reqs[j].comp == int32(c); j++ {
			us = append(us, unit{kReq, int32(j)})
			for ; k < len(t.reqs) && t.linksOf(t.reqs[k].refines)[0].to == int32(j); k++ {
				us = append(us, unit{kReq, int32(k)})
			}
		}
		groups = append(groups, unitGroup{cat: fSoftware, comp: int32(c), units: us,
			breakAt: func(u unit) bool { return t.reqs[u.idx].level == 1 }})
	}
	return groups
}

// groupByComp appends to groups a group per component of the count
// nodes of kind (comp gives each one's component; skip, when not nil,
// leaves some out), in order, leaving out empty groups.
func (t *Tree) groupByComp(groups []unitGroup, cat fileCat, config int8, kind uint8, count int, comp func(i int) int32, skip func(i int) bool) []unitGroup {
	sizes := make([]int, len(t.comps))
	for i := range count {
		if skip == nil || !skip(i) {
			sizes[comp(i)]++
		}
	}
	lists := make([][]unit, len(t.comps))
	for c, n := range sizes {
		lists[c] = make([]unit, 0, n)
	}
	for i := range count {
		if skip == nil || !skip(i) {
			c := comp(i)
			lists[c] = append(lists[c], unit{kind, int32(i)})
		}
	}
	for c, l := range lists {
		if len(l) > 0 {
			groups = append(groups, unitGroup{cat: cat, comp: int32(c), config: config, units: l})
		}
	}
	return groups
}

// fileStarts cuts g into files of perFile units, or up to twice as many
// to end a file where g allows it, and gives the first unit of each.
func (t *Tree) fileStarts(g unitGroup) []int {
	var starts []int
	for i := 0; i < len(g.units); {
		starts = append(starts, i)
		j := min(i+t.perFile, len(g.units))
		if g.breakAt != nil {
			for j < len(g.units) && j < i+2*t.perFile && !g.breakAt(g.units[j]) {
				j++
			}
		}
		i = j
	}
	return starts
}

// filePath is the path of file s of the files of group g.
func (t *Tree) filePath(g unitGroup, s, files int) string {
	name := t.comps[g.comp]
	switch g.cat {
	case fSystem:
		return t.dir("docs/system", s, files) + "/system-" + pad(s+1, 3) + ".rst"
	case fSoftware:
		return t.dir("docs/software/"+name, s, files) + "/" + name + "-" + pad(s+1, 3) + ".rst"
	case fTests:
		return t.dir("docs/tests/"+name, s, files) + "/" + name + "-tests-" + pad(s+1, 3) + ".rst"
	case fImpl:
		return t.dir("docs/impl/"+name, s, files) + "/" + name + "-impl-" + pad(s+1, 3) + ".rst"
	case fResults:
		return t.dir("docs/results/"+Configs[g.config]+"/"+name, s, files) + "/results-" + pad(s+1, 3) + ".rst"
	case fWaivers:
		return t.dir("docs/results/waivers", s, files) + "/" + name + "-waivers-" + pad(s+1, 3) + ".rst"
	}
	return ""
}

// layoutDense puts every node, in the usual order, into exactly files
// files of about the same number of nodes.
func (t *Tree) layoutDense(files int) {
	for i := range t.reqs {
		t.units = append(t.units, unit{kReq, int32(i)})
	}
	for i := range t.tests {
		if !t.tests[i].inline {
			t.units = append(t.units, unit{kTest, int32(i)})
		}
	}
	for i := range t.impls {
		t.units = append(t.units, unit{kImpl, int32(i)})
	}
	for i := range t.outs {
		t.units = append(t.units, unit{kOut, int32(i)})
	}
	for i := range t.waivers {
		t.units = append(t.units, unit{kWaiver, int32(i)})
	}
	n := len(t.units)
	for f := range files {
		lo, hi := n*f/files, n*(f+1)/files
		p := t.dir("dense", f, files) + "/f" + pad(f+1, max(4, digits(files))) + ".rst"
		t.files = append(t.files, fileSpec{path: p, cat: fDense, seq: f + 1, lo: int32(lo), hi: int32(hi)})
	}
}

// Files is the number of files in the tree.
func (t *Tree) Files() int { return len(t.files) }

// Path is the slash-separated path of file i, relative to the output
// folder.
func (t *Tree) Path(i int) string { return t.files[i].path }

// Root is the tree's top folder under the output folder ("docs" or
// "dense").
func (t *Tree) Root() string { return t.root }

// Size renders every file and returns the total number of bytes.
func (t *Tree) Size() int64 {
	var n int64
	var buf []byte
	for i := range t.files {
		buf, _ = t.Render(i, buf[:0])
		n += int64(len(buf))
	}
	return n
}

// Counts are the numbers of nodes of each kind the tree holds (inline
// tests included), and of the warnings its content should give.
type Counts struct {
	Requirements int `json:"requirements"`
	Sys          int `json:"sys"`
	Req          int `json:"req"`
	Sreq         int `json:"sreq"`
	Tests        int `json:"tests"`
	Impls        int `json:"implementations"`
	Outcomes     int `json:"outcomes"`
	Waivers      int `json:"waivers"`
	Files        int `json:"files"`
	// Warnings seg should report on this content.
	Unwitnessed    int `json:"unwitnessed_outcomes"`
	ExpiredWaivers int `json:"expired_waivers"`
	UnusedWaivers  int `json:"unused_waivers"`
}

// Count counts the nodes.
func (t *Tree) Count() Counts {
	c := Counts{
		Requirements: len(t.reqs), Sys: t.nSys, Req: t.nReq, Sreq: len(t.reqs) - t.nSys - t.nReq,
		Tests: len(t.tests), Impls: len(t.impls), Outcomes: len(t.outs), Waivers: len(t.waivers), Files: len(t.files),
	}
	for _, o := range t.outs {
		if o.witnesses.hi == o.witnesses.lo {
			c.Unwitnessed++
		}
	}
	for _, w := range t.waivers {
		if w.expires != "" && w.expires < RefDate {
			c.ExpiredWaivers++
		}
		used := false
		for _, l := range t.linksOf(w.excuses) {
			if res := t.outs[l.to].result; res == 1 || res == 3 {
				used = true
			}
		}
		if !used {
			c.UnusedWaivers++
		}
	}
	return c
}

func (t *Tree) String() string {
	c := t.Count()
	return fmt.Sprintf("%d requirements (%d sys, %d req, %d sreq), %d tests, %d implementations, %d outcomes, %d waivers in %d files",
		c.Requirements, c.Sys, c.Req, c.Sreq, c.Tests, c.Impls, c.Outcomes, c.Waivers, c.Files)
}
