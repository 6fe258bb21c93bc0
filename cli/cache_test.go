package cli

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/bench/gen"
	"github.com/seg-trace/seg/cache"
	"github.com/seg-trace/seg/report"
)

// The parse cache must never change a result: every test here compares
// seg's output with the cache against its output with --no-cache, byte for
// byte, exit code and standard error included.

func init() {
	// The other tests of this package run seg too: keep their entries out
	// of the user's cache folder. (One shared folder, bounded like any
	// cache, rather than a new one per run left behind in /tmp.)
	if os.Getenv(cache.EnvDir) == "" {
		os.Setenv(cache.EnvDir, filepath.Join(os.TempDir(), "seg-cli-test-cache"))
	}
}

// cacheCommands are the outputs compared: check as JSON and as text, and
// the whole graph.
var cacheCommands = [][]string{
	{"check", "--format", "json"},
	{"check", "--color", "never"},
	{"graph", "--format", "json"},
}

type result struct {
	code           int
	stdout, stderr string
}

func runResult(args ...string) result {
	r, _ := runResultStats(args...)
	return r
}

func runResultStats(args ...string) (result, cache.Stats) {
	code, st, out, errs := runStats(args...)
	return result{code, out, errs}, st
}

// compareWithNoCache runs every command on root with and without the
// cache and fails on any difference. It returns the cache's statistics of
// the first cached run.
func compareWithNoCache(t *testing.T, root, step string) cache.Stats {
	t.Helper()
	var st cache.Stats
	for i, c := range cacheCommands {
		args := append(append([]string(nil), c...), "--at", "2026-11-29", root)
		want := runResult(append(args, "--no-cache")...)
		got, gst := runResultStats(args...)
		if i == 0 {
			st = gst
		}
		if want.code == 2 {
			t.Fatalf("%s: seg %v could not run: %s", step, args, want.stderr)
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(result{})); diff != "" {
			t.Fatalf("%s: seg %v differs with the cache (-no-cache +cache):\n%s", step, args, diff)
		}
	}
	return st
}

// genTree writes a small generated tree with planted defects, in many
// small files.
func genTree(t testing.TB, n int, seed uint64) string {
	t.Helper()
	tr, err := gen.New(gen.Options{N: n, Seed: seed, Defects: true, DefectRate: 0.05, PerFile: 6, FilesPerDir: 5})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := gen.WriteDir(tr, dir, gen.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func rstFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".rst") {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// configs are the seg.toml files the edit sequence switches between
// ("" removes it).
var configs = []string{
	"",
	"extra_options = [\"status\", \"tags\"]\n",
	"[directives]\nhlr = \"requirement\"\ntspec = \"test\"\nreq = \"test\"\n",
	"literal_directives = [\"note\", \"container\"]\n",
	"id_pattern = \"^[A-Z][A-Z0-9-]*$\"\n",
	"exclude = [\"docs/tests/**\", \"**/part-01\"]\n",
	"id_pattern = \"^[A-Z][A-Z0-9-]*$\"\nextra_options = [\"status\"]\nliteral_directives = [\"jupyter-execute\"]\n",
}

// edit makes one random change to the tree and says what it did.
func edit(t *testing.T, r *rand.Rand, root string) string {
	t.Helper()
	files := rstFiles(t, root)
	pick := func() string { return files[r.IntN(len(files))] }
	full := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	read := func(rel string) []string {
		b, err := os.ReadFile(full(rel))
		if err != nil {
			t.Fatal(err)
		}
		return strings.SplitAfter(string(b), "\n")
	}
	write := func(rel string, lines []string) {
		if err := os.MkdirAll(filepath.Dir(full(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full(rel), []byte(strings.Join(lines, "")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	switch op := r.IntN(12); {
	case op < 5 && len(files) > 0: // change a file
		rel := pick()
		lines := read(rel)
		i := r.IntN(len(lines))
		switch r.IntN(7) {
		case 0:
			lines = append(lines[:i], lines[i+1:]...)
			write(rel, lines)
			return "delete line " + fmt.Sprint(i+1) + " of " + rel
		case 1:
			lines = append(lines[:i+1], lines[i:]...)
			write(rel, lines)
			return "repeat line " + fmt.Sprint(i+1) + " of " + rel
		case 2:
			node := fmt.Sprintf("\n.. sreq:: Added %d\n   :id: ADD-%d\n   :refines: %s\n   :status: new\n\n   Added body.\n\n", i, r.IntN(1000), "SEG-SYS-0001")
			lines = append(lines[:i], append([]string{node}, lines[i:]...)...)
			write(rel, lines)
			return "insert a node at line " + fmt.Sprint(i+1) + " of " + rel
		case 3:
			lines[i] = "   " + lines[i]
			write(rel, lines)
			return "indent line " + fmt.Sprint(i+1) + " of " + rel
		case 4:
			lines[i] = strings.Replace(lines[i], "-", "_", 1)
			write(rel, lines)
			return "change a dash on line " + fmt.Sprint(i+1) + " of " + rel
		case 5:
			lines = append(lines, "\xff\n")
			write(rel, lines)
			return "make " + rel + " invalid UTF-8"
		default:
			for j := range lines {
				lines[j] = strings.ReplaceAll(lines[j], "\n", "\r\n")
			}
			write(rel, lines)
			return "CRLF line ends in " + rel
		}
	case op < 7 && len(files) > 0: // add a file: a copy of another (duplicate IDs) or new nodes
		rel := fmt.Sprintf("docs/added/a%d.rst", r.IntN(50))
		if r.IntN(2) == 0 {
			write(rel, read(pick()))
			return "add " + rel + " as a copy"
		}
		write(rel, []string{fmt.Sprintf(".. test:: Added\n   :id: ADD-T-%d\n   :verifies: ADD-%d, %s\n", r.IntN(100), r.IntN(1000), "SEG-SREQ-00001")})
		return "add " + rel
	case op < 8 && len(files) > 1: // delete a file
		rel := pick()
		os.Remove(full(rel))
		return "delete " + rel
	case op < 10 && len(files) > 0: // rename a file (sometimes to a hidden or skipped name)
		rel := pick()
		to := []string{"docs/moved/" + filepath.Base(rel), "docs/.hidden-" + filepath.Base(rel), "_build/" + filepath.Base(rel), filepath.ToSlash(filepath.Dir(rel)) + "/r-" + filepath.Base(rel)}[r.IntN(4)]
		os.MkdirAll(filepath.Dir(full(to)), 0o755)
		if err := os.Rename(full(rel), full(to)); err != nil {
			t.Fatal(err)
		}
		return "rename " + rel + " to " + to
	case op < 11: // rewrite a file with the same bytes
		if len(files) > 0 {
			rel := pick()
			write(rel, read(rel))
			return "rewrite " + rel + " unchanged"
		}
		return "nothing"
	default: // change the config
		c := configs[r.IntN(len(configs))]
		if c == "" {
			os.Remove(full("seg.toml"))
			return "remove seg.toml"
		}
		if err := os.WriteFile(full("seg.toml"), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		return "seg.toml: " + strings.ReplaceAll(c, "\n", "; ")
	}
}

// Random edits (change, add, delete, rename files; change the config),
// each followed by a comparison of every output with --no-cache.
func TestCacheRandomEdits(t *testing.T) {
	t.Setenv(cache.EnvDir, t.TempDir())
	steps := 40
	if testing.Short() {
		steps = 10
	}
	for seed := uint64(1); seed <= 2; seed++ {
		root := genTree(t, 40, seed)
		r := rand.New(rand.NewPCG(seed, 99))
		st := compareWithNoCache(t, root, "start")
		hits := 0
		var log []string
		for i := range steps {
			what := edit(t, r, root)
			log = append(log, what)
			st = compareWithNoCache(t, root, fmt.Sprintf("seed %d step %d (%s)", seed, i, strings.Join(log, ", then ")))
			hits += st.Hits
		}
		if hits == 0 {
			t.Fatalf("seed %d: the cache was never used: %+v", seed, st)
		}
	}
}

// A warm run reads every file from the cache, and --no-cache neither reads
// nor writes it.
func TestCacheWarmAndNoCache(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(cache.EnvDir, dir)
	root := genTree(t, 30, 3)
	runResult("check", "--no-cache", root)
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("--no-cache wrote %d entries", len(ents))
	}
	compareWithNoCache(t, root, "cold")
	// The same run again: its report comes from the result cache.
	if st := compareWithNoCache(t, root, "warm"); !st.Result {
		t.Fatalf("warm run did not use its stored result: %+v", st)
	}
	// Another evaluation date has no stored result: every file comes from
	// the parse cache.
	_, st := runResultStats("check", "--at", "2026-11-30", root)
	if st.Result || st.Files == 0 || st.Hits != st.Files || st.Misses != 0 {
		t.Fatalf("warm run on another date: %+v", st)
	}
	// Garbage in every entry: --no-cache gives the right answer without
	// reading (nor rewriting) them.
	ents := cacheEntries(t, dir)
	for _, e := range ents {
		os.WriteFile(e, []byte("garbage"), 0o644)
	}
	compareWithNoCache(t, root, "after garbage")
	// must not rewrite
	if _, st := runResultStats("check", "--no-cache", root); st.Hits+st.Written+st.Corrupt != 0 || st.Result {
		t.Errorf("--no-cache used the cache: %+v", st)
	}
	// SEG_CACHE_DIR=off is --no-cache for good.
	t.Setenv(cache.EnvDir, "off")
	compareWithNoCache(t, root, "off")
}

func cacheEntries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && len(filepath.Base(filepath.Dir(p))) == 2 && !strings.HasPrefix(d.Name(), ".") {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	if len(out) == 0 {
		t.Fatal("no cache entries")
	}
	return out
}

// Damaged entries (a flipped byte, cut short, emptied, another file's
// entry) are ignored and written again.
func TestCacheDamagedEntries(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(cache.EnvDir, dir)
	root := genTree(t, 30, 4)
	compareWithNoCache(t, root, "fill")
	r := rand.New(rand.NewPCG(4, 4))
	for round := range 6 {
		ents := cacheEntries(t, dir)
		damaged := 0
		for i, e := range ents {
			b, _ := os.ReadFile(e)
			// Stored results are always damaged, so that the files'
			// entries are read.
			if r.IntN(2) == 0 && !bytes.HasPrefix(b, []byte("SEGR")) {
				continue
			}
			switch (round + i) % 4 {
			case 0:
				b[r.IntN(len(b))] ^= byte(1 + r.IntN(255))
			case 1:
				b = b[:r.IntN(len(b))]
			case 2:
				b = nil
			case 3:
				b, _ = os.ReadFile(ents[(i+1)%len(ents)])
			}
			os.WriteFile(e, b, 0o644)
			damaged++
		}
		st := compareWithNoCache(t, root, fmt.Sprintf("round %d", round))
		if damaged > 0 && st.Corrupt == 0 && st.Misses == 0 {
			t.Fatalf("round %d: %d damaged entries went unnoticed: %+v", round, damaged, st)
		}
		if st := compareWithNoCache(t, root, "after rewrite"); !st.Result && st.Hits != st.Files {
			t.Fatalf("round %d: damaged entries were not written again: %+v", round, st)
		}
	}
}

// Many runs at once in one process, on an empty cache and on a damaged
// one, all give the right answer.
func TestCacheConcurrentExecute(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(cache.EnvDir, dir)
	root := genTree(t, 60, 5)
	want := map[string]result{}
	for _, c := range cacheCommands {
		want[strings.Join(c, " ")] = runResult(append(append([]string(nil), c...), "--at", "2026-11-29", "--no-cache", root)...)
	}
	for round := range 4 {
		if round%2 == 0 {
			os.RemoveAll(dir)
		} else {
			for i, e := range cacheEntries(t, dir) {
				if i%3 == 0 {
					os.WriteFile(e, []byte("x"), 0o644)
				}
			}
		}
		var wg sync.WaitGroup
		errs := make(chan string, 64)
		for g := range 8 {
			c := cacheCommands[g%len(cacheCommands)]
			wg.Add(1)
			go func() {
				defer wg.Done()
				got := runResult(append(append([]string(nil), c...), "--at", "2026-11-29", root)...)
				if w := want[strings.Join(c, " ")]; got != w {
					errs <- fmt.Sprintf("round %d: seg %v differs: %s", round, c, cmp.Diff(w, got, cmp.AllowUnexported(result{})))
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Fatal(e)
		}
	}
}

// buildSeg builds the seg command into a temporary folder.
func buildSeg(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds seg")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), "seg")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	out, err := exec.Command(goTool, "build", "-o", bin, "github.com/seg-trace/seg/cmd/seg").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// Separate seg processes writing the same cache at once never give a
// wrong result.
func TestCacheConcurrentProcesses(t *testing.T) {
	bin := buildSeg(t)
	dir := t.TempDir()
	root := genTree(t, 60, 6)
	segRun := func(extra ...string) (result, error) {
		cmd := exec.Command(bin, append([]string{"check", "--format", "json", "--at", "2026-11-29", root}, extra...)...)
		cmd.Env = append(os.Environ(), cache.EnvDir+"="+dir)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code, err = ee.ExitCode(), nil
		}
		return result{code, out.String(), errb.String()}, err
	}
	want, err := segRun("--no-cache")
	if err != nil {
		t.Fatal(err)
	}
	if inProcess := runResult("check", "--format", "json", "--at", "2026-11-29", "--no-cache", root); inProcess != want {
		t.Fatal("the built seg and Execute disagree")
	}
	for round := range 3 {
		if round != 1 {
			os.RemoveAll(dir) // round 1 starts warm
		}
		var wg sync.WaitGroup
		results := make([]result, 4)
		errs := make([]error, 4)
		for p := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[p], errs[p] = segRun()
			}()
		}
		wg.Wait()
		for p := range results {
			if errs[p] != nil {
				t.Fatal(errs[p])
			}
			if results[p] != want {
				t.Fatalf("round %d, process %d: %s", round, p, cmp.Diff(want, results[p], cmp.AllowUnexported(result{})))
			}
		}
	}
	// What the processes left is sound: a last run reads it all.
	if got, _ := segRun(); got != want {
		t.Fatal("the cache the processes left gives another result")
	}
	if ents := cacheEntries(t, dir); len(ents) == 0 {
		t.Fatal("no entries")
	}
}

// BenchmarkCheck times seg check --format json end to end, in process, on
// the tree SEG_BENCH_TREE names (go run -tags seggen ./bench/seggen -n 50000 -seed 1
// -out DIR), with the cache warm and with --no-cache. The cache is the one
// SEG_CACHE_DIR names (by default the package's test cache): the warm
// benchmark fills it first, so a profile of warm runs only is the second
// run of one test binary:
//
//	go test -c -o cli.test ./cli
//	SEG_BENCH_TREE=DIR ./cli.test -test.run '^$' -test.bench 'Check/warm' -test.benchtime 1x
//	SEG_BENCH_TREE=DIR ./cli.test -test.run '^$' -test.bench 'Check/warm' -test.benchtime 5x -test.cpuprofile warm.out
//	go tool pprof -top -cum cli.test warm.out
func BenchmarkCheck(b *testing.B) {
	root := os.Getenv("SEG_BENCH_TREE")
	if root == "" {
		b.Skip("SEG_BENCH_TREE is not set")
	}
	args := []string{"check", "--format", "json", "--at", "2026-11-29", "--output", os.DevNull, root}
	// warm: every file's entry is in the parse cache, and no stored report
	// fits (each run evaluates at another date, as a run after an edit
	// finds no report for its tree).
	b.Run("warm", func(b *testing.B) {
		Execute(args, io.Discard, io.Discard) // fill
		// A year no earlier benchmark run used, so its reports were not stored.
		day := time.Date(2100+rand.IntN(7000), 1, 1, 0, 0, 0, 0, time.UTC)
		for b.Loop() {
			day = day.AddDate(0, 0, 1)
			Execute(append(args, "--at", day.Format(time.DateOnly)), io.Discard, io.Discard)
		}
	})
	// stored: the report comes from the result cache.
	b.Run("stored", func(b *testing.B) {
		Execute(args, io.Discard, io.Discard) // fill
		for b.Loop() {
			Execute(args, io.Discard, io.Discard)
		}
	})
	b.Run("no-cache", func(b *testing.B) {
		for b.Loop() {
			Execute(append(args, "--no-cache"), io.Discard, io.Discard)
		}
	})
}

// BenchmarkPhases times the phases of seg check --format json on
// SEG_BENCH_TREE one by one, as pipeline runs them, and reports each as a
// metric (ms/op): parse (through the cache, warm, or with --no-cache),
// graph.Build, evaluate (with the diagnostics sort) and the JSON report.
// In one process the heap is reused from run to run; a new seg process
// pays for all of its memory afresh (docs/performance.md).
func BenchmarkPhases(b *testing.B) {
	root := os.Getenv("SEG_BENCH_TREE")
	if root == "" {
		b.Skip("SEG_BENCH_TREE is not set")
	}
	for _, noCache := range []bool{false, true} {
		name := "warm"
		if noCache {
			name = "no-cache"
		}
		b.Run(name, func(b *testing.B) {
			o := &options{noCache: noCache, at: "2026-11-29"}
			if !noCache {
				load(root, o, io.Discard) // fill
			}
			var run, out time.Duration
			for b.Loop() {
				t0 := time.Now()
				c, _, err := load(root, o, io.Discard)
				if err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if err := report.WriteJSON(io.Discard, c); err != nil {
					b.Fatal(err)
				}
				t2 := time.Now()
				run += t1.Sub(t0)
				out += t2.Sub(t1)
			}
			ms := func(d time.Duration) float64 { return float64(d.Milliseconds()) / float64(b.N) }
			b.ReportMetric(ms(run), "run-ms/op")
			b.ReportMetric(ms(out), "json-ms/op")
		})
	}
}

// A stored result is used only by a run that would write the same report:
// each step changes one thing the report depends on (and must miss), or
// nothing (and must hit), and every output is compared with --no-cache.
func TestResultCacheKey(t *testing.T) {
	t.Setenv(cache.EnvDir, t.TempDir())
	root := genTree(t, 30, 7)
	one := rstFiles(t, root)[0]
	steps := []struct {
		what string
		args []string
		edit func()
		hit  bool
	}{
		{what: "first run", args: []string{"check", "--format", "json", "--at", "2026-11-29"}},
		{what: "the same run", args: []string{"check", "--format", "json", "--at", "2026-11-29"}, hit: true},
		{what: "another format", args: []string{"check", "--format", "text", "--color", "never", "--at", "2026-11-29"}},
		{what: "color", args: []string{"check", "--format", "text", "--color", "always", "--at", "2026-11-29"}},
		{what: "the same colored run", args: []string{"check", "--format", "text", "--color", "always", "--at", "2026-11-29"}, hit: true},
		{what: "another date", args: []string{"check", "--format", "json", "--at", "2026-12-15"}},
		{what: "--only", args: []string{"check", "--format", "json", "--at", "2026-11-29", "--only", filepath.Join(root, one)}},
		{what: "--blame all", args: []string{"check", "--format", "json", "--at", "2026-11-29", "--only", filepath.Join(root, one), "--blame", "all"}},
		{what: "--output", args: []string{"check", "--format", "json", "--at", "2026-11-29", "--output", filepath.Join(t.TempDir(), "r.json")}, hit: true},
		{what: "a file rewritten with the same bytes", args: []string{"check", "--format", "json", "--at", "2026-11-29"}, hit: true, edit: func() {
			b, _ := os.ReadFile(filepath.Join(root, one))
			os.WriteFile(filepath.Join(root, one), b, 0o644)
		}},
		{what: "a file changed", args: []string{"check", "--format", "json", "--at", "2026-11-29"}, edit: func() {
			f, _ := os.OpenFile(filepath.Join(root, one), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString("\n.. sreq:: Late\n   :id: LATE-1\n")
			f.Close()
		}},
		{what: "a config", args: []string{"check", "--format", "json", "--at", "2026-11-29"}, edit: func() {
			os.WriteFile(filepath.Join(root, "seg.toml"), []byte(configs[4]), 0o644)
		}},
		{what: "a file added", args: []string{"check", "--format", "json", "--at", "2026-11-29"}, edit: func() {
			os.WriteFile(filepath.Join(root, "new.rst"), []byte("Prose only.\n"), 0o644)
		}},
		{what: "a file unreadable", args: []string{"check", "--format", "json", "--at", "2026-11-29"}, edit: func() {
			os.Symlink("missing.rst", filepath.Join(root, "dangling.rst"))
		}},
		{what: "the same unreadable tree", args: []string{"check", "--format", "json", "--at", "2026-11-29"}, hit: true},
		{what: "a seg.lock", args: []string{"check", "--format", "json", "--at", "2026-11-29"}, edit: func() {
			os.WriteFile(filepath.Join(root, "seg.lock"), []byte("# reviewed: nothing yet\n"), 0o644)
		}},
		{what: "the same seg.lock", args: []string{"check", "--format", "json", "--at", "2026-11-29"}, hit: true},
	}
	for _, s := range steps {
		if s.edit != nil {
			s.edit()
		}
		args := append(append([]string(nil), s.args...), root)
		want := runResult(append(args, "--no-cache")...)
		got, st := runResultStats(args...)
		if want.code == 2 {
			t.Fatalf("%s: seg could not run: %s", s.what, want.stderr)
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(result{})); diff != "" {
			t.Fatalf("%s: differs with the cache (-no-cache +cache):\n%s", s.what, diff)
		}
		if st.Result != s.hit {
			t.Errorf("%s: stored result used: %v, want %v (%+v)", s.what, st.Result, s.hit, st)
		}
	}
}

// A seg.lock that cannot be read never finds the report of a run that
// had none: the run is made, and refuses (exit 2).
func TestResultCacheUnreadableLock(t *testing.T) {
	t.Setenv(cache.EnvDir, t.TempDir())
	root := genTree(t, 30, 7)
	args := []string{"check", "--format", "json", "--at", "2026-11-29", root}
	runResult(args...)
	if err := os.Mkdir(filepath.Join(root, "seg.lock"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, st := runResultStats(args...)
	if got.code != 2 || st.Result {
		t.Fatalf("an unreadable seg.lock: exit %d, stored report used %v, want exit 2 from a run\n%s", got.code, st.Result, got.stderr)
	}
}

// A run with test results files stores no result: the results are not
// part of the tree's hash.
func TestResultCacheNotWithResults(t *testing.T) {
	t.Setenv(cache.EnvDir, t.TempDir())
	root := genTree(t, 20, 8)
	junit := filepath.Join(t.TempDir(), "junit.xml")
	os.WriteFile(junit, []byte(`<testsuite name="s"><testcase classname="c" name="x"/></testsuite>`), 0o644)
	for range 2 {
		_, st := runResultStats("check", "--at", "2026-11-29", "--results", junit, root)
		if st.Result || st.Files == 0 {
			t.Fatalf("a run with --results used a stored result: %+v", st)
		}
	}
}
