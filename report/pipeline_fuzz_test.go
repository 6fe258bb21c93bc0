package report

// FuzzPipeline runs the whole of seg on generated trees with random
// corruption: check.Open and Tree.Run, then every output format. It asserts
// that nothing panics, that a run allocates memory bounded by the input's
// size, that two runs give the same bytes in every format, and that
// corrupting one byte of an outcome's directive block never makes an
// unsatisfied requirement satisfied (semantics.md: bad input never makes
// evidence against a requirement disappear), unless the corruption left
// an error that fails the check: the outcome's link itself unreadable
// (the spec counts an outcome against the tests its :confirms: names
// "where that can be read"), or a directive docutils no longer reads.
// TestOutcomeCorruptionClasses counts those.
//
// Run it (the seeds alone run with go test):
//
//	go test ./report -run '^$' -fuzz FuzzPipeline -fuzztime 30m
//
// A failing input is written to testdata/fuzz/FuzzPipeline; keep it there
// as a regression case.

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/internal/testing/segtest"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// tree is a generated tree: file names (sorted) and their bytes; fixed
// are files written besides them that corruption leaves alone (seg.toml
// and a code file whose tags implement some of the requirements).
type tree struct {
	names []string
	files map[string][]byte
	fixed map[string][]byte
}

func (t tree) size() int {
	n := 0
	for _, b := range t.files {
		n += len(b)
	}
	return n
}

func (t tree) clone() tree {
	c := tree{names: t.names, files: map[string][]byte{}, fixed: t.fixed}
	for k, v := range t.files {
		c.files[k] = slices.Clone(v)
	}
	return c
}

// genTree renders segtest's random tree of seed over a few files, with
// nodes nested in notes and list items.
func genTree(seed uint64) tree {
	r := rand.New(rand.NewPCG(seed, 0xf022))
	tr := segtest.RandomTree(r)
	t := tree{files: map[string][]byte{}}
	for name, text := range tr.RSTFiles(r, 1+r.IntN(3)) {
		t.files[name] = []byte(text)
		t.names = append(t.names, name)
	}
	sort.Strings(t.names)
	// Code tags of several syntaxes implement some requirements (and name
	// one that does not exist), in a file outside the corruption, so that
	// the seeds and regression inputs keep their meaning.
	var reqs []string
	for _, n := range tr.Nodes {
		if n.Kind == parser.Requirement && n.ID != "" {
			reqs = append(reqs, n.ID)
		}
	}
	if len(reqs) > 0 && seed%3 != 0 {
		code := fmt.Sprintf("// req-Id: %s\nint f(void);\n# @need-ids: %s, %s\n// lobster-trace: %s\n// req-Id: NOT-THERE\n",
			reqs[seed%uint64(len(reqs))], reqs[0], reqs[len(reqs)-1], reqs[len(reqs)/2])
		t.fixed = map[string][]byte{"seg.toml": []byte("[code]\npaths = [\"src/**\"]\n"), "src/tags.c": []byte(code)}
	}
	return t
}

// corrupt applies edits, three bytes each (a 16-bit offset into the
// concatenated files, and a byte: 0xff deletes, anything else replaces),
// at most 16 of them.
func (t tree) corrupt(edits []byte) tree {
	c := t.clone()
	for k := 0; k+3 <= len(edits) && k < 48; k += 3 {
		total := c.size()
		if total == 0 {
			break
		}
		off := (int(edits[k])<<8 | int(edits[k+1])) % total
		for _, name := range c.names {
			b := c.files[name]
			if off < len(b) {
				if edits[k+2] == 0xff {
					c.files[name] = append(b[:off:off], b[off+1:]...)
				} else {
					b[off] = edits[k+2]
				}
				break
			}
			off -= len(b)
		}
	}
	return c
}

func (t tree) write(dir string) error {
	for name, b := range t.fixed {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	for _, name := range t.names {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, t.files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// runCheck is check.Open and Tree.Run.
func runCheck(t testing.TB, dir string) *check.Check {
	c, err := checkDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func checkDir(dir string) (*check.Check, error) {
	tr, err := check.Open(dir, "")
	if err != nil {
		return nil, fmt.Errorf("open: %v", err)
	}
	c, _, err := tr.Run(check.Options{At: testAt})
	if err != nil {
		return nil, fmt.Errorf("run: %v", err)
	}
	return c, nil
}

// run is one pipeline run: the check and the bytes of every format.
func run(t testing.TB, dir string) (*check.Check, map[string][]byte) {
	c := runCheck(t, dir)
	out := map[string][]byte{}
	write := func(name string, f func(*bytes.Buffer) error) {
		var b bytes.Buffer
		if err := f(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = b.Bytes()
	}
	write("text", func(b *bytes.Buffer) error { return WriteText(b, c, TextOptions{Colored: false}) })
	write("text-color", func(b *bytes.Buffer) error { return WriteText(b, c, TextOptions{Colored: true}) })
	write("json", func(b *bytes.Buffer) error { return WriteJSON(b, c) })
	write("github", func(b *bytes.Buffer) error { return WriteGitHub(b, c, false) })
	write("sarif", func(b *bytes.Buffer) error { return WriteSARIF(b, c, "fuzz") })
	write("graph-json", func(b *bytes.Buffer) error { return WriteGraphJSON(b, c) })
	write("dot", func(b *bytes.Buffer) error { return WriteDOT(b, c) })
	write("mermaid", func(b *bytes.Buffer) error { return WriteMermaid(b, c) })
	write("needs-json", func(b *bytes.Buffer) error { return WriteNeedsJSON(b, c) })
	m := BuildMatrix(c, MatrixOptions{LinkTemplate: "https://x/{file}#L{line}"})
	write("matrix-json", func(b *bytes.Buffer) error { return WriteMatrixJSON(b, m) })
	write("matrix-csv", func(b *bytes.Buffer) error { return WriteMatrixCSV(b, m) })
	write("matrix-md", func(b *bytes.Buffer) error { return WriteMatrixMarkdown(b, m) })
	write("matrix-html", func(b *bytes.Buffer) error { return WriteMatrixHTML(b, c, m, MatrixOptions{}) })
	// Explain every node kind once: the first requirement and the first
	// node of every other kind.
	seen := map[parser.Kind]bool{}
	for n := range c.Graph.Nodes() {
		if seen[n.Kind()] || n.ID() == "" {
			continue
		}
		seen[n.Kind()] = true
		id := n.ID()
		write("explain "+n.Kind().String(), func(b *bytes.Buffer) error { return WriteExplain(b, c, id, ExplainOptions{Depth: -1, Colored: false}) })
		write("explain-json "+n.Kind().String(), func(b *bytes.Buffer) error { return WriteExplainJSON(b, c, id, ExplainOptions{Depth: -1}) })
	}
	return c, out
}

// allocBound is the most a run may allocate for an input of n bytes. A
// run of the generated trees allocates about 1 to 2 KB per input byte
// over a fixed 1.5 MB (most of it the SARIF rules and the HTML template);
// the bound leaves a wide margin, so that only growth worse than linear
// trips it.
func allocBound(n int) uint64 { return 16<<20 + 8_000*uint64(n) }

// statuses maps each requirement ID to its status.
func statuses(c *check.Check) map[string]string {
	m := map[string]string{}
	for _, r := range c.Requirements() {
		m[r.Node.ID()] = r.Verdict.Status.String()
	}
	return m
}

// outcomeBlocks finds the directive blocks of the outcomes in a tree:
// file, start (the "..") and end (the end of the last line of options).
type span struct {
	file       string
	start, end int
}

func outcomeBlocks(t tree) []span {
	var out []span
	for _, name := range t.names {
		b := t.files[name]
		for i := 0; i < len(b); {
			j := bytes.IndexByte(b[i:], '\n')
			if j < 0 {
				j = len(b) - i
			}
			line := b[i : i+j]
			if k := bytes.Index(line, []byte(".. outcome::")); k >= 0 && len(bytes.TrimLeft(line[:k], " ")) == 0 {
				start := i + k
				end := i + j
				for p := end + 1; p < len(b); {
					q := bytes.IndexByte(b[p:], '\n')
					if q < 0 {
						q = len(b) - p
					}
					if len(bytes.TrimSpace(b[p:p+q])) == 0 {
						break
					}
					end = p + q
					p += q + 1
				}
				out = append(out, span{name, start, end})
			}
			i += j + 1
		}
	}
	return out
}

// lossClass says how corrupting an outcome made evidence disappear, or ""
// when it cannot say (which fails the test): "vanished" (no outcome at
// the same place any more), "relinked" (its :confirms: or :witnesses:
// targets changed) or "displaced" (its new ID took a requirement's, and
// the duplicate-ID rule dropped the requirement), each with the new
// diagnostic codes.
func lossClass(base, bad *check.Check, sp span) string {
	find := func(c *check.Check) *graph.Node {
		for n := range c.Graph.Nodes() {
			p := c.Files.Position(n.Pos())
			if n.Kind() == parser.Outcome && p.Filename == sp.file && p.Offset == sp.start {
				return n
			}
		}
		return nil
	}
	codes := func(c *check.Check) map[string]int {
		m := map[string]int{}
		for _, d := range c.Diagnostics {
			m[d.Code.Name]++
		}
		return m
	}
	was, now := codes(base), codes(bad)
	var added []string
	for k, v := range now {
		if v > was[k] {
			added = append(added, k)
		}
	}
	sort.Strings(added)
	why := strings.Join(added, ",")
	if why == "" {
		why = "no new diagnostic"
	}
	o, n := find(base), find(bad)
	if o == nil {
		return ""
	}
	for id := range statuses(base) {
		if _, ok := statuses(bad)[id]; !ok {
			return "displaced requirement " + id + " (" + why + ")"
		}
	}
	if n == nil {
		return "vanished (" + why + ")"
	}
	targets := func(c *check.Check, x *graph.Node) string {
		var ids []string
		for _, typ := range []graph.EdgeType{graph.Confirms, graph.Witnesses} {
			for e := range c.Graph.Out(x, typ) {
				ids = append(ids, typ.String()+">"+c.Graph.To(e).ID())
			}
		}
		sort.Strings(ids)
		return strings.Join(ids, " ")
	}
	if targets(base, o) != targets(bad, n) {
		return "relinked (" + why + ")"
	}
	return ""
}

// corruptOutcome replaces (or, for 0xff, deletes) one byte of outcome
// block k at position pos.
func corruptOutcome(t tree, blocks []span, k, pos int, v byte) (tree, span) {
	sp := blocks[k%len(blocks)]
	// Only the corrupted file is copied.
	c := tree{names: t.names, files: maps.Clone(t.files), fixed: t.fixed}
	c.files[sp.file] = slices.Clone(t.files[sp.file])
	b := c.files[sp.file]
	off := sp.start + pos%(sp.end-sp.start)
	if v == 0xff {
		c.files[sp.file] = append(b[:off:off], b[off+1:]...)
	} else {
		b[off] = v
	}
	return c, sp
}

// checkOutcomeCorruption runs one corruption of an outcome of base (in
// dir, a folder of its own that holds base's files, as it does again on
// return: only the corrupted file is written) and returns the
// requirements that went from unsatisfied to satisfied, with the loss
// class when there are any.
func checkOutcomeCorruption(dir string, base tree, blocks []span, baseCheck *check.Check, k, pos int, v byte) (flipped []string, class string, red bool, err error) {
	if len(blocks) == 0 {
		return nil, "", false, nil
	}
	bad, sp := corruptOutcome(base, blocks, k, pos, v)
	p := filepath.Join(dir, filepath.FromSlash(sp.file))
	if err := os.WriteFile(p, bad.files[sp.file], 0o644); err != nil {
		return nil, "", false, err
	}
	badCheck, err := checkDir(dir)
	if err := os.WriteFile(p, base.files[sp.file], 0o644); err != nil {
		return nil, "", false, err
	}
	if err != nil {
		return nil, "", false, err
	}
	before, after := statuses(baseCheck), statuses(badCheck)
	for id, st := range before {
		if st != "satisfied" && after[id] == "satisfied" {
			flipped = append(flipped, id)
		}
	}
	if len(flipped) == 0 {
		return nil, "", false, nil
	}
	sort.Strings(flipped)
	return flipped, lossClass(baseCheck, badCheck, sp), newError(baseCheck, badCheck), nil
}

// newError reports whether bad has an error base does not: one of
// another code or at another place. Counting is not enough: a corruption
// may turn an outcome's own error (a missing :result:) into another (a
// damaged directive marker), and the one that is new is what tells the
// writer that the outcome is broken.
func newError(base, bad *check.Check) bool {
	type at struct {
		code string
		pos  source.Position
	}
	was := map[at]int{}
	for _, d := range base.Diagnostics {
		if d.Severity() == diag.Error {
			was[at{d.Code.Name, base.Files.Position(d.Span.Start)}]++
		}
	}
	for _, d := range bad.Diagnostics {
		if d.Severity() != diag.Error {
			continue
		}
		k := at{d.Code.Name, bad.Files.Position(d.Span.Start)}
		if was[k] == 0 {
			return true
		}
		was[k]--
	}
	return false
}

func FuzzPipeline(f *testing.F) {
	for seed := range uint64(24) {
		f.Add(seed, []byte{}, uint8(seed), uint16(seed*7), byte('x'))
	}
	f.Add(uint64(3), []byte{0, 40, ' ', 1, 2, '\n'}, uint8(1), uint16(3), byte(0xff))
	f.Add(uint64(5), []byte{0, 10, 0xff, 0, 11, 0xff}, uint8(0), uint16(20), byte(':'))
	f.Add(uint64(9), []byte{0, 0, 0x1b, 0, 90, 0x07}, uint8(2), uint16(0), byte('.'))
	f.Fuzz(func(t *testing.T, seed uint64, edits []byte, oc uint8, op uint16, ov byte) {
		base := genTree(seed % 4096).corrupt(edits)
		dir := t.TempDir()
		if err := base.write(dir); err != nil {
			t.Fatal(err)
		}
		// Memory: what one run allocates, against the input's size.
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		c1, out1 := run(t, dir)
		runtime.ReadMemStats(&m1)
		if got, limit := m1.TotalAlloc-m0.TotalAlloc, allocBound(base.size()); got > limit {
			t.Fatalf("a run allocated %d bytes for %d input bytes (limit %d)", got, base.size(), limit)
		}
		// Determinism: a second run, from scratch, gives the same bytes.
		_, out2 := run(t, dir)
		for name, b := range out1 {
			if !bytes.Equal(b, out2[name]) {
				t.Fatalf("format %s differs between two runs", name)
			}
		}
		// One corrupted byte in an outcome never satisfies a requirement.
		flipped, class, red, err := checkOutcomeCorruption(dir, base, outcomeBlocks(base), c1, int(oc), int(op), ov)
		if err != nil {
			t.Fatal(err)
		}
		if len(flipped) > 0 && !red {
			t.Fatalf("corrupting byte %d of outcome %d to %q made %v satisfied (%s) and the check passes", op, oc, ov, flipped, class)
		}
	})
}

// TestOutcomeCorruptionClasses corrupts every byte of every outcome of a
// few generated trees (replaced by 'x', or deleted) and counts the corruptions that make an unsatisfied
// requirement satisfied, by class, with one example each (go test -v shows
// them). It fails on a loss that leaves no new error: a check that would
// pass.
func TestOutcomeCorruptionClasses(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	counts := map[string]int{}
	examples := map[string]string{}
	runs := 0
	// Seeds 2 and 3 show every class; more seeds and byte values find no
	// new one. The corruptions are independent: they run on every core,
	// each worker in a folder of its own, and are read back in order.
	type job struct {
		k, pos  int
		v       byte
		flipped []string
		class   string
		red     bool
		err     error
	}
	for _, seed := range []uint64{2, 3} {
		base := genTree(seed)
		dir := t.TempDir()
		if err := base.write(dir); err != nil {
			t.Fatal(err)
		}
		c := runCheck(t, dir)
		blocks := outcomeBlocks(base)
		var jobs []*job
		for k, sp := range blocks {
			for pos := 0; pos < sp.end-sp.start; pos++ {
				for _, v := range []byte{'x', 0xff} {
					jobs = append(jobs, &job{k: k, pos: pos, v: v})
				}
			}
		}
		next := make(chan *job)
		var wg sync.WaitGroup
		for range runtime.GOMAXPROCS(0) {
			work := t.TempDir()
			if err := base.write(work); err != nil {
				t.Fatal(err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := range next {
					j.flipped, j.class, j.red, j.err = checkOutcomeCorruption(work, base, blocks, c, j.k, j.pos, j.v)
				}
			}()
		}
		for _, j := range jobs {
			next <- j
		}
		close(next)
		wg.Wait()
		for _, j := range jobs {
			runs++
			if j.err != nil {
				t.Fatal(j.err)
			}
			if len(j.flipped) == 0 {
				continue
			}
			if j.class == "" || !j.red {
				t.Errorf("seed %d outcome %d byte %d -> %q: %v satisfied (%s) and no new error fails the check", seed, j.k, j.pos, j.v, j.flipped, j.class)
				continue
			}
			counts[j.class]++
			if examples[j.class] == "" {
				sp := blocks[j.k]
				line := string(base.files[sp.file][sp.start:sp.end])
				examples[j.class] = fmt.Sprintf("seed %d, %s byte %d of %q -> %q: %v satisfied", seed, sp.file, j.pos, line, j.v, j.flipped)
			}
		}
	}
	classes := make([]string, 0, len(counts))
	for k := range counts {
		classes = append(classes, k)
	}
	sort.Strings(classes)
	t.Logf("%d corruptions of outcome bytes", runs)
	for _, k := range classes {
		t.Logf("%5d  %s\n       e.g. %s", counts[k], k, examples[k])
	}
}
