package gen_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/seg-trace/seg/bench/gen"
)

func mustNew(t testing.TB, opt gen.Options) *gen.Tree {
	t.Helper()
	tr, err := gen.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// files renders every file of the tree, in the given order of indexes
// (all of them, forward, when order is nil), and the planted defects.
func files(tr *gen.Tree, order []int) (map[string][]byte, []gen.Defect) {
	if order == nil {
		for i := range tr.Files() {
			order = append(order, i)
		}
	}
	out := map[string][]byte{}
	var defects []gen.Defect
	for _, i := range order {
		b, d := tr.Render(i, nil)
		out[tr.Path(i)] = b
		defects = append(defects, d...)
	}
	return out, defects
}

// text makes a map go-cmp compares quickly (and diffs by line).
func text(fs map[string][]byte) map[string]string {
	out := make(map[string]string, len(fs))
	for p, b := range fs {
		out[p] = string(b)
	}
	return out
}

func total(fs map[string][]byte) int {
	n := 0
	for _, b := range fs {
		n += len(b)
	}
	return n
}

func TestDeterministic(t *testing.T) {
	for _, defects := range []bool{false, true} {
		opt := gen.Options{N: 3000, Seed: 7, Defects: defects}
		a, _ := files(mustNew(t, opt), nil)
		// A second plan, its files rendered in reverse order, as parallel
		// writers may.
		tr := mustNew(t, opt)
		var rev []int
		for i := tr.Files() - 1; i >= 0; i-- {
			rev = append(rev, i)
		}
		b, _ := files(tr, rev)
		if diff := cmp.Diff(text(a), text(b)); diff != "" {
			t.Fatalf("defects=%v: two runs differ (-first +second):\n%s", defects, diff)
		}
		opt.Seed = 8
		c, _ := files(mustNew(t, opt), nil)
		if cmp.Equal(text(a), text(c)) {
			t.Errorf("defects=%v: seeds 7 and 8 gave the same tree", defects)
		}
	}
}

// readTree reads every file under dir into a map keyed by slash path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestWriteDirDeterministic(t *testing.T) {
	opt := gen.Options{N: 2000, Seed: 3, Defects: true, FilesPerDir: 4}
	a, b := t.TempDir(), t.TempDir()
	if _, err := gen.WriteDir(mustNew(t, opt), a, gen.WriteOptions{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.WriteDir(mustNew(t, opt), b, gen.WriteOptions{Workers: 4}); err != nil {
		t.Fatal(err)
	}
	ta, tb := readTree(t, a), readTree(t, b)
	if diff := cmp.Diff(text(ta), text(tb)); diff != "" {
		t.Fatalf("two writes differ (-first +second):\n%s", diff)
	}
	// What was written is what Render gives, and the manifest is there.
	want, _ := files(mustNew(t, opt), nil)
	want[gen.ManifestName] = ta[gen.ManifestName]
	// And every file a :source: names, under the top folders the
	// manifest lists.
	var m gen.Manifest
	if err := json.Unmarshal(ta[gen.ManifestName], &m); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"cmd", "internal"}, m.Sources); diff != "" {
		t.Errorf("manifest sources (-want +got):\n%s", diff)
	}
	sources := regexp.MustCompile(`(?m)^ +:source: ([^\n]+(?:,\n +[^\n]+)?)`)
	for name, data := range ta {
		if !strings.HasSuffix(name, ".rst") {
			continue
		}
		for _, m := range sources.FindAllStringSubmatch(string(data), -1) {
			for _, p := range strings.Split(m[1], ",") {
				p = strings.TrimSpace(p)
				if _, ok := ta[p]; !ok && p != "" {
					t.Errorf("%s: :source: %s names no written file", name, p)
				}
			}
		}
	}
	for name, data := range ta {
		if top, _, _ := strings.Cut(name, "/"); top == "cmd" || top == "internal" {
			want[name] = data
		}
	}
	if diff := cmp.Diff(text(want), text(ta)); diff != "" {
		t.Fatalf("written tree differs from rendered (-rendered +written):\n%s", diff)
	}
	// -files-per-dir 4 splits folders into parts.
	if !regexpAnyKey(ta, `^docs/results/linux-amd64/[a-z]+/part-02/results-005\.rst$`) {
		t.Errorf("no part-NN folders with -files-per-dir 4")
	}
}

func regexpAnyKey(m map[string][]byte, rx string) bool {
	re := regexp.MustCompile(rx)
	for k := range m {
		if re.MatchString(k) {
			return true
		}
	}
	return false
}

var reqLine = regexp.MustCompile(`(?m)^[ \t]*\.\. (sreq|req|sys)::`)

func TestCounts(t *testing.T) {
	for _, n := range []int{3, 4, 10, 57, 1250, 5000} {
		for _, defects := range []bool{false, true} {
			tr := mustNew(t, gen.Options{N: n, Seed: uint64(n), Defects: defects})
			fs, _ := files(tr, nil)
			got := 0
			for _, b := range fs {
				got += len(reqLine.FindAll(b, -1))
			}
			if got != n {
				t.Errorf("n=%d defects=%v: %d requirement directives", n, defects, got)
			}
			c := tr.Count()
			if c.Requirements != n || c.Sys+c.Req+c.Sreq != n || c.Sys < 1 || c.Req < 1 || c.Sreq < 1 {
				t.Errorf("n=%d: counts %+v", n, c)
			}
			nodes := scan(t, fs)
			kinds := map[string]int{}
			for _, nd := range nodes {
				kinds[nd.kind]++
			}
			want := map[string]int{"requirement": n, "test": c.Tests, "impl": c.Impls, "outcome": c.Outcomes, "waiver": c.Waivers}
			if c.Waivers == 0 {
				delete(want, "waiver")
			}
			if diff := cmp.Diff(want, kinds); diff != "" {
				t.Errorf("n=%d: nodes by kind (-counted +scanned):\n%s", n, diff)
			}
		}
	}
}

func TestSize(t *testing.T) {
	small, _ := files(mustNew(t, gen.Options{N: 1250, Seed: 1}), nil)
	size := total(small)
	if size < 1_350_000 || size > 1_650_000 {
		t.Errorf("1,250 requirements: %d bytes, want about 1.5 MB", size)
	}
	big, _ := files(mustNew(t, gen.Options{N: 12500, Seed: 1}), nil)
	ratio := float64(total(big)) / 12500 / (float64(size) / 1250)
	if ratio < 0.95 || ratio > 1.05 {
		t.Errorf("bytes per requirement at 12,500 / at 1,250 = %.3f, want within 5%%", ratio)
	}
	per := 0
	for _, b := range big {
		per = max(per, len(reqLine.FindAll(b, -1)))
	}
	if per < 40 || per > 110 {
		t.Errorf("at most %d requirements in one file, want about 50", per)
	}
}

func TestNoDefects(t *testing.T) {
	for seed := range uint64(4) {
		fs, planted := files(mustNew(t, gen.Options{N: 4000, Seed: seed}), nil)
		if len(planted) != 0 {
			t.Errorf("seed %d: planted %v without -defects", seed, planted)
		}
		if probs := check(scan(t, fs)); len(probs) != 0 {
			t.Errorf("seed %d: %d problems without -defects, first: %v", seed, len(probs), probs[0])
		}
	}
}

func TestDefects(t *testing.T) {
	for _, n := range []int{50, 20000} {
		tr := mustNew(t, gen.Options{N: n, Seed: 5, Defects: true})
		fs, planted := files(tr, nil)
		probs := check(scan(t, fs))
		// A duplicate is found at both places; the generator names the
		// node that took another's ID. Compare duplicates by ID.
		norm := func(ds []gen.Defect) []string {
			var out []string
			seen := map[string]bool{}
			for _, d := range ds {
				s := fmt.Sprintf("%s %s:%d", d.Code, d.File, d.Line)
				if d.Code == "duplicate-id" {
					s = "duplicate-id " + d.ID
				}
				if !seen[s] {
					seen[s] = true
					out = append(out, s)
				}
			}
			sort.Strings(out)
			return out
		}
		if diff := cmp.Diff(norm(planted), norm(probs)); diff != "" {
			t.Errorf("n=%d: planted defects (-) and those found (+) differ:\n%s", n, diff)
		}
		codes := map[string]int{}
		for _, d := range planted {
			codes[d.Code]++
		}
		each := max(1, n*2/1000/3)
		for _, c := range []string{"duplicate-id", "unresolved-link", "unknown-option"} {
			if codes[c] != each {
				t.Errorf("n=%d: %d planted %s, want %d", n, codes[c], c, each)
			}
		}
	}
}

// TestContent checks that the tree has what a realistic tree has: the
// kinds of RST structure seg must read around, nesting, multi-line values,
// every link state, result and waiver kind.
func TestContent(t *testing.T) {
	fs, _ := files(mustNew(t, gen.Options{N: 12500, Seed: 2}), nil)
	var all bytes.Buffer
	paths := make([]string, 0, len(fs))
	for p := range fs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	dirs := map[string]bool{}
	for _, p := range paths {
		all.Write(fs[p])
		dirs[strings.Join(strings.Split(p, "/")[:2], "/")] = true
		if !utf8.Valid(fs[p]) || !bytes.HasSuffix(fs[p], []byte("\n")) || bytes.Contains(fs[p], []byte("\n\n\n\n")) {
			t.Errorf("%s: not valid UTF-8, or no final newline, or three blank lines", p)
		}
	}
	for _, d := range []string{"docs/system", "docs/software", "docs/tests", "docs/impl", "docs/results"} {
		if !dirs[d] {
			t.Errorf("no folder %s", d)
		}
	}
	text := all.String()
	for name, rx := range map[string]string{
		"section title":      `\n[A-Z][^\n]+\n-{5,}\n`,
		"subsection":         `\n[A-Z][^\n]+\n~{5,}\n`,
		"bullet list":        `\n\n- [A-Z*]`,
		"enumerated list":    `\n *#\. `,
		"code block":         `\n *\.\. code-block:: [a-z]+\n`,
		"literal block":      `::\n\n   +\S`,
		"lone ::":            `\n *::\n\n`,
		"admonition":         `\n *\.\. (note|warning|admonition)::`,
		"grid table":         `\n *\+=+\+`,
		"simple table":       `\n *=+  =+  =+\n`,
		"list table":         `\.\. list-table::`,
		"comment":            `\n *\.\. TODO: `,
		"field list in body": `\n\n +:Owner: team-`,
		"definition list":    `\n[A-Z][a-z -]+\n   [A-Z*]`,
		"target":             `\n\.\. _[a-z0-9-]+:\n`,
		"non-ASCII prose":    `µs|Zürich`,
		"two-line title":     `\n *\.\. [a-z]+:: [^\n]+\n +[a-z][^:\n]*\n +:id: `,
		"node in note":       `\.\. note::\n\n(   [^\n]*\n|\n)*   \.\. (sreq|test|impl|outcome)::`,
		"node in list item":  `recorded as:\n\n  \.\. [a-z]+::`,
		"node in container":  `\.\. container:: [a-z]+\n\n   \.\. [a-z]+::`,
		"multi-line links":   `\n +:(verifies|implements|refines|witnesses|excuses): [^\n]+,\n {8,}[A-Z]`,
		"value on next line": `\n +:(verifies|implements|refines|witnesses|excuses):\n +[A-Z]`,
		"multi-line source":  `\n +:source: [^\n]+,\n +[a-z]`,
		"other separator":    `\n +:[a-z]+: [A-Z][^\n]*( \| |; )`,
		"trailing separator": `\n +:[a-z]+: [^\n]*[A-Z0-9)],\n\n`,
		"suspect":            `\(suspect\)`,
		"retired":            `\(retired\)`,
		"cases":              `\n +:cases: \S+`,
		"failed":             `:result: failed`,
		"skipped":            `:result: skipped`,
		"error":              `:result: error`,
		"every config":       `:config: windows-amd64`,
		"future expiry":      `:expires: 2027-`,
		"past expiry":        `:expires: 2026-(0|10|11-[01])`,
	} {
		if !regexp.MustCompile(rx).MatchString(text) {
			t.Errorf("no %s (%s)", name, rx)
		}
	}
	nodes := scan(t, fs)
	var nested, inNode, unwitnessed, noExpiry int
	outer := map[string]bool{}
	for _, n := range nodes {
		if n.indent > 0 {
			nested++
		}
		if n.parent != "" {
			inNode++
			outer[n.parent] = true
		}
		if n.kind == "outcome" && len(n.opts["witnesses"]) == 0 {
			unwitnessed++
		}
		if n.kind == "waiver" && len(n.opts["expires"]) == 0 {
			noExpiry++
		}
	}
	if nested < 100 || inNode < 50 || unwitnessed == 0 || noExpiry == 0 {
		t.Errorf("nested %d, inside another node %d, unwitnessed %d, waivers without expiry %d", nested, inNode, unwitnessed, noExpiry)
	}
	// Several children per parent on average, some with two parents.
	children := map[string]int{}
	multi := 0
	for _, n := range nodes {
		if n.kind == "requirement" {
			ps := n.opts["refines"]
			for _, p := range ps {
				children[p.id]++
			}
			if len(ps) > 1 {
				multi++
			}
		}
	}
	if multi == 0 {
		t.Errorf("no requirement refines two parents")
	}
	sum := 0
	for _, c := range children {
		sum += c
	}
	if avg := float64(sum) / float64(len(children)); avg < 3 || avg > 6 {
		t.Errorf("%.1f children per parent on average", avg)
	}
}

func TestRSTTitles(t *testing.T) {
	fs, _ := files(mustNew(t, gen.Options{N: 3000, Seed: 9}), nil)
	under := regexp.MustCompile(`^(=+|~+|-+)$`)
	for p, b := range fs {
		lines := strings.Split(string(b), "\n")
		for i := 1; i < len(lines); i++ {
			if under.MatchString(lines[i]) && lines[i-1] != "" && !under.MatchString(lines[i-1]) &&
				!strings.HasPrefix(lines[i-1], " ") && len(lines[i]) < len(lines[i-1]) {
				t.Errorf("%s:%d: underline shorter than its title %q", p, i+1, lines[i-1])
			}
		}
	}
}

func TestDense(t *testing.T) {
	tr, err := gen.NewDense(gen.DenseOptions{MB: 2, Files: 60, Seed: 1, FilesPerDir: 25})
	if err != nil {
		t.Fatal(err)
	}
	fs, _ := files(tr, nil)
	if len(fs) != 60 {
		t.Errorf("%d files, want 60", len(fs))
	}
	if size := total(fs); size < 1_960_000 || size > 2_040_000 {
		t.Errorf("%d bytes, want 2 MB within 2%%", size)
	}
	if !regexpAnyKey(fs, `^dense/part-03/f0051\.rst$`) {
		t.Errorf("files are not split into folders of 25")
	}
	nodes := scan(t, fs)
	if probs := check(nodes); len(probs) != 0 {
		t.Errorf("%d problems, first %v", len(probs), probs[0])
	}
	directiveBytes := 0
	for _, b := range fs {
		directiveBytes += bytes.Count(b, []byte(".. "))
	}
	// Directive-dense: a node every few hundred bytes, no prose.
	if per := float64(total(fs)) / float64(len(nodes)); per > 250 {
		t.Errorf("%.0f bytes per node", per)
	}
	if directiveBytes != len(nodes) {
		t.Errorf("%d explicit markup starts for %d nodes: dense trees have no other markup", directiveBytes, len(nodes))
	}
}

func TestOptionsRefused(t *testing.T) {
	for _, o := range []gen.Options{{N: 2}, {N: 100, PerFile: -1}, {N: 100, Defects: true, DefectRate: 0.5}} {
		if _, err := gen.New(o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	for _, o := range []gen.DenseOptions{{MB: 0, Files: 1}, {MB: 1, Files: 0}} {
		if _, err := gen.NewDense(o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

func TestWriteDirSafety(t *testing.T) {
	tr := mustNew(t, gen.Options{N: 100, Seed: 1})
	out := filepath.Join(t.TempDir(), "tree")

	if _, err := gen.WriteDir(tr, out, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(out, "docs", "stale.rst")
	if err := os.WriteFile(stale, []byte("x\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	// Not empty: refused without -force.
	if _, err := gen.WriteDir(tr, out, gen.WriteOptions{}); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("non-empty folder: err = %v", err)
	}
	// -force over an earlier tree clears that tree first.
	if _, err := gen.WriteDir(tr, out, gen.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the earlier tree's stale file survived -force: %v", err)
	}

	// -force over a folder seggen did not write removes nothing.
	foreign := t.TempDir()
	keep := filepath.Join(foreign, "notes.txt")
	os.WriteFile(keep, []byte("mine\n"), 0o666)
	var warn bytes.Buffer
	if _, err := gen.WriteDir(tr, foreign, gen.WriteOptions{Force: true, Warn: &warn}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(keep); err != nil || !strings.Contains(warn.String(), "without removing") {
		t.Errorf("foreign file: %v; warning %q", err, warn.String())
	}
	// A manifest that is not seggen's: refuse to remove anything.
	odd := t.TempDir()
	os.WriteFile(filepath.Join(odd, gen.ManifestName), []byte(`{"generator":"other","root":"/"}`), 0o666)
	if _, err := gen.WriteDir(tr, odd, gen.WriteOptions{Force: true}); err == nil {
		t.Errorf("foreign manifest: no error")
	}

	// A symbolic link inside the output folder cannot lead writes outside.
	outside := t.TempDir()
	trap := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(trap, "docs")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if _, err := gen.WriteDir(tr, trap, gen.WriteOptions{Force: true}); err == nil {
		t.Errorf("writing through a symbolic link out of the folder: no error")
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("wrote outside the output folder: %v", ents)
	}
}

func TestDenseSizeFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	start := time.Now()
	tr, err := gen.NewDense(gen.DenseOptions{MB: 20, Files: 1000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if size := tr.Size(); size < 19_600_000 || size > 20_400_000 || tr.Files() != 1000 {
		t.Errorf("%d bytes in %d files, want 20 MB in 1000", size, tr.Files())
	}
	t.Logf("planned and rendered twice in %v", time.Since(start))
}
