package check

import (
	"io/fs"
	"slices"
	"time"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/fileid"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/results"
	"github.com/seg-trace/seg/source"
)

// resultsMemo is what the results stage of one Live run hands the next,
// so that a run whose results files and whose tree, as the stage reads
// it, are what they were gives the very outcome nodes of the last run
// (the same slice: the graph build knows unchanged input by its
// address, and patches the last graph only then), with the same cases
// left unmatched and the same diagnostics, and reads no results file.
//
// Nobody tells a Live check that a results file changed (a test run
// writes them), so every run looks again: the patterns are listed again
// (a file added or removed under a glob, a file gone, the same errors),
// and each file is opened and stat'ed. The last run's answer stands only
// when every file has the identity (fileid.ID) it had when it was read and
// had changed long enough before then to be trusted (fileid.RacyWindow, as the
// :source: stage does).
//
// What the stage reads of the tree: the :cases: patterns of the test
// specifications (results.Patterns) and the kind of the node each
// witness names. The outcomes and the unmatched cases depend on the
// patterns' text and test only; the no-results warnings on where the
// patterns are written too, so an edit that moves a pattern (a line
// typed above it) gets the last run's warnings in their new places. A
// witness that names no implementation is reported with a list of the
// tree's implementations, so while there is one the stage is done again
// every run.
type resultsMemo struct {
	// now is the clock the racy window is read on (time.Now; tests move
	// it on to make fresh files count as settled).
	now func() time.Time
	// inputs are what the stage reads of each file, by its parse, for
	// the witnesses named (the union of every source's).
	inputs    map[*parser.File]resultsInputs
	witnesses []string
	last      *resultsRun
}

// resultsInputs is what the results stage reads of one file.
type resultsInputs struct {
	pats []results.Pattern
	// kinds are the kinds of the first node of the file with each
	// witness's ID, by the witness's index; -1 for none.
	kinds []int
}

// resultsRun is the last run's results stage: what it read and what it
// gave.
type resultsRun struct {
	sources []results.Source // Open and File aside
	ids     []fileid.ID
	// first is the index of the first file the stage added to the run's
	// set; files are those it added.
	first int
	files []*source.File
	pats  []results.Pattern
	// out is what the stage gave but the no-results warnings, tail, one
	// for each pattern that matched no case, in order; unused says which
	// patterns those are (nil when it could not be told).
	out    resultsRead
	tail   diag.List
	unused []bool
}

// run is the results stage of a Live run (Tree.loadResults): sources
// are the results files found, out what finding them gave.
func (m *resultsMemo) run(fset *source.FileSet, files []*parser.File, code []parser.Node, sources []results.Source, out resultsRead) resultsRead {
	now := time.Now()
	if m.now != nil {
		now = m.now()
	}
	pats, good := m.read(files, sources)
	// Stat'ed before the files are read, an identity can only be older
	// than what is read: a file written meanwhile is read again next run.
	ids, trusted := make([]fileid.ID, len(sources)), good
	for i, s := range sources {
		id, ok := statSource(s)
		ids[i] = id
		trusted = trusted && ok && id.Settled(now)
	}
	if lr := m.last; lr != nil && good && len(fset.Files()) == lr.first && slices.Equal(lr.ids, ids) &&
		slices.EqualFunc(lr.sources, sources, sameSource) && lr.movePatterns(pats) {
		for _, f := range lr.files {
			fset.Keep(f)
		}
		out.nodes, out.outcomes, out.unmatched = lr.out.nodes, lr.out.outcomes, lr.out.unmatched
		out.diags = append(append(out.diags, lr.out.diags...), lr.tail...)
		return out
	}
	first := len(fset.Files())
	diags := out.diags
	out.diags = nil
	out = readResults(fset, files, code, sources, out)
	m.last = nil
	if trusted {
		m.last = newResultsRun(fset, first, sources, ids, pats, out)
	}
	out.diags = append(diags, out.diags...)
	return out
}

// read gathers what the stage reads of files (as results.Outcomes does),
// each file's by its parse as last run where it is the same: the
// patterns, in order, and whether every witness of sources names an
// implementation.
func (m *resultsMemo) read(files []*parser.File, sources []results.Source) (pats []results.Pattern, good bool) {
	seen := map[string]bool{}
	var witnesses []string
	for _, s := range sources {
		for _, w := range s.Witnesses {
			if !seen[w] {
				seen[w] = true
				witnesses = append(witnesses, w)
			}
		}
	}
	slices.Sort(witnesses)
	old := m.inputs
	if !slices.Equal(witnesses, m.witnesses) {
		old, m.witnesses = nil, witnesses
	}
	index := make(map[string]int, len(witnesses))
	for i, w := range witnesses {
		index[w] = i
	}
	kinds := make([]parser.Kind, len(witnesses))
	found := make([]bool, len(witnesses))
	inputs := make(map[*parser.File]resultsInputs, len(files))
	for _, f := range files {
		if f == nil {
			continue
		}
		in, ok := old[f]
		if !ok {
			in = fileInputs(f, index)
		}
		inputs[f] = in
		pats = append(pats, in.pats...)
		for i, k := range in.kinds {
			if k >= 0 && !found[i] {
				found[i], kinds[i] = true, parser.Kind(k)
			}
		}
	}
	m.inputs = inputs
	good = true
	for i := range witnesses {
		good = good && found[i] && kinds[i] == parser.Implementation
	}
	return pats, good
}

// fileInputs is what the results stage reads of f, for the witnesses
// given by their index.
func fileInputs(f *parser.File, index map[string]int) resultsInputs {
	in := resultsInputs{pats: results.Patterns(f.Nodes), kinds: make([]int, len(index))}
	for i := range in.kinds {
		in.kinds[i] = -1
	}
	for i := range f.Nodes {
		n := &f.Nodes[i]
		if w, ok := index[n.ID]; ok && n.ID != "" && in.kinds[w] < 0 {
			in.kinds[w] = int(n.Kind)
		}
	}
	return in
}

// statSource is the identity of the file s reads, as opening it finds
// it; ok is false when it cannot be had.
func statSource(s results.Source) (fileid.ID, bool) {
	rc, err := s.Open()
	if err != nil {
		return fileid.ID{}, false
	}
	defer rc.Close()
	st, ok := rc.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return fileid.ID{}, false
	}
	info, err := st.Stat()
	if err != nil {
		return fileid.ID{}, false
	}
	return fileid.Of(info), true
}

// sameSource reports whether two runs found the same results file, to
// be read with the same settings.
func sameSource(a, b results.Source) bool {
	return a.Path == b.Path && slices.Equal(a.Witnesses, b.Witnesses) && a.Config == b.Config &&
		a.Flaky == b.Flaky && a.Origin == b.Origin && slices.Equal(a.Verify, b.Verify)
}

// newResultsRun records a run that read sources (whose identities are
// ids), adding its files to fset from index first, with the tree's
// patterns pats, and gave out.
func newResultsRun(fset *source.FileSet, first int, sources []results.Source, ids []fileid.ID, pats []results.Pattern, out resultsRead) *resultsRun {
	lr := &resultsRun{first: first, files: slices.Clone(fset.Files()[first:]), ids: ids, pats: pats}
	for _, s := range sources {
		s.Open, s.File = nil, nil
		lr.sources = append(lr.sources, s)
	}
	// results.Outcomes gives its no-results warnings last, one for each
	// pattern that matched no case, in the patterns' order.
	k := len(out.diags)
	for k > 0 && out.diags[k-1].Code == results.CodeNoResults {
		k--
	}
	lr.out = out
	lr.out.diags = slices.Clip(out.diags[:k])
	lr.tail = slices.Clone(out.diags[k:])
	// Each warning is placed at its pattern: where no two patterns share
	// a place, that tells which pattern it is of.
	at := make(map[source.Span]int, len(pats))
	for i, p := range pats {
		if _, dup := at[p.Span]; dup {
			return lr
		}
		at[p.Span] = i
	}
	unused := make([]bool, len(pats))
	next := 0
	for _, d := range lr.tail {
		i, ok := at[d.Span]
		if !ok || i < next {
			return lr
		}
		unused[i] = true
		next = i + 1
	}
	lr.unused = unused
	return lr
}

// movePatterns makes the last run's stand for a run whose patterns are
// pats, and reports whether it can: pats are the last run's but for
// where they are written. Whether a pattern matches a case, and what its
// no-results warning says, depends on its text and its test only; the
// warnings move with their patterns.
func (lr *resultsRun) movePatterns(pats []results.Pattern) bool {
	if !slices.EqualFunc(lr.pats, pats, func(a, b results.Pattern) bool { return a.Text == b.Text && a.Test == b.Test }) {
		return false
	}
	if slices.Equal(lr.pats, pats) {
		return true
	}
	if lr.unused == nil {
		return false
	}
	tail := make(diag.List, 0, len(lr.tail))
	for i, u := range lr.unused {
		if u {
			d := lr.tail[len(tail)]
			d.Span = pats[i].Span
			tail = append(tail, d)
		}
	}
	lr.pats, lr.tail = pats, tail
	return true
}
