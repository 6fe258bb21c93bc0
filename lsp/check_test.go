package lsp_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/bench/gen"
	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/cli"
	"github.com/seg-trace/seg/internal/testing/randlock"
	"github.com/seg-trace/seg/internal/testing/segtest"
)

// The server and `seg check --format json` read the same tree the same
// way: every diagnostic of the report is published at the same place
// with the same code, severity and message (one with no place is shown
// as a message), and every requirement that is not satisfied has an
// unsatisfied diagnostic on its directive line that names its status and
// first blocking reason. Positions go from the LSP's (lines as LSP cuts
// them, UTF-8 columns) back to seg's (lines as docutils cuts them, byte
// columns) through the file's bytes.

type checkReport struct {
	Requirements []struct {
		ID      string `json:"id"`
		File    string `json:"file"`
		Line    int    `json:"line"`
		Verdict string `json:"verdict"`
		Status  string `json:"status"`
		Reasons []struct {
			Message string `json:"message"`
		} `json:"reasons"`
	} `json:"requirements"`
	Diagnostics []struct {
		Code     string `json:"code"`
		Severity string `json:"severity"`
		Message  string `json:"message"`
		File     string `json:"file"`
		Line     int    `json:"line"`
		Column   int    `json:"column"`
	} `json:"diagnostics"`
}

// segPos converts an LSP position (utf-8 columns) in text to seg's line
// and column: docutils' line breaks, the text read without a leading
// byte order mark (as editors show it, and as seg counts columns).
func segPos(text []byte, p pos) (int, int) {
	text = bytes.TrimPrefix(text, []byte("\uFEFF"))
	off, line := 0, 0
	for line < p.Line && off < len(text) {
		switch text[off] {
		case '\n':
			line++
		case '\r':
			if off+1 < len(text) && text[off+1] == '\n' {
				off++
			}
			line++
		}
		off++
	}
	off += p.Character
	l, start := 1, 0
	for i := 0; i < off && i < len(text); i++ {
		brk := 0
		switch c := text[i]; {
		case c == '\n' || c == 0x1c || c == 0x1d || c == 0x1e:
			brk = 1
		case c == '\r' && i+1 < len(text) && text[i+1] == '\n':
			brk = 2
		case c == '\r':
			brk = 1
		case c == 0xC2 && i+1 < len(text) && text[i+1] == 0x85:
			brk = 2
		case c == 0xE2 && i+2 < len(text) && text[i+1] == 0x80 && (text[i+2] == 0xA8 || text[i+2] == 0xA9):
			brk = 3
		}
		if brk > 0 {
			i += brk - 1
			if i < off {
				l, start = l+1, i+1
			}
		}
	}
	return l, off - start + 1
}

var severities = map[int]string{1: "error", 2: "warning"}

// checkFindings is what seg check --format json says of root, one line a
// finding.
func checkFindings(t *testing.T, root string, flags ...string) []string {
	t.Helper()
	var out, errb bytes.Buffer
	args := append([]string{"check", "--format", "json", "--at", "2026-11-29", "--no-cache"}, flags...)
	cli.Execute(append(args, root), &out, &errb)
	var rep checkReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("seg check: %v\n%s", err, errb.String())
	}
	var want []string
	for _, d := range rep.Diagnostics {
		where := "-"
		if d.File != "" {
			where = fmt.Sprintf("%s:%d:%d", d.File, d.Line, d.Column)
		}
		want = append(want, fmt.Sprintf("%s %s %s %s", where, d.Severity, d.Code, d.Message))
	}
	for _, r := range rep.Requirements {
		if r.Verdict == "unsatisfied" {
			// The report gives a requirement's line only.
			want = append(want, fmt.Sprintf("%s:%d warning unsatisfied requirement %q is %s: %s", r.File, r.Line, r.ID, r.Status, r.Reasons[0].Message))
		}
	}
	slices.Sort(want)
	return want
}

// serverFindings is what the client has: every published diagnostic in
// check's terms, and the messages that stand for findings with no place.
func serverFindings(t *testing.T, c *client, texts func(file string) []byte) []string {
	t.Helper()
	c.sync()
	var got []string
	c.mu.Lock()
	defer c.mu.Unlock()
	for file, ds := range c.diags {
		text := texts(file)
		for _, d := range ds {
			l, col := segPos(text, d.Range.Start)
			where := fmt.Sprintf("%s:%d:%d", file, l, col)
			if d.Code == "unsatisfied" {
				where = fmt.Sprintf("%s:%d", file, l)
			}
			got = append(got, fmt.Sprintf("%s %s %s %s", where, severities[d.Severity], d.Code, d.Message))
		}
	}
	for _, m := range c.msgs {
		if m, ok := strings.CutPrefix(m, "seg: "); ok && strings.HasSuffix(m, "]") {
			i := strings.LastIndex(m, " [")
			sev := "warning"
			if c.msgErr[m] {
				sev = "error"
			}
			got = append(got, fmt.Sprintf("- %s %s %s", sev, m[i+2:len(m)-1], m[:i]))
		}
	}
	slices.Sort(got)
	return got
}

// compareWithCheck starts a server on root (open: how it opens the tree,
// as flags make seg check open it) and compares what it publishes with
// seg check's report.
func compareWithCheck(t *testing.T, root string, open func(string) (*check.Tree, check.Options, error), flags ...string) {
	t.Helper()
	root, _ = filepath.Abs(root)
	want := checkFindings(t, root, flags...)
	cfg := at
	cfg.Open = open
	c := start(t, root, cfg, `{"general":{"positionEncodings":["utf-8"]}}`)
	got := serverFindings(t, c, func(file string) []byte {
		text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil {
			t.Fatal(err)
		}
		return text
	})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("seg check (-) and the server (+) disagree:\n%s", diff)
	}
	t.Logf("%d findings agree", len(want))
}

func TestSameAsCheckExamples(t *testing.T) {
	t.Parallel()
	for _, ex := range []string{"brake", "broken", "needs", "stale"} {
		t.Run(ex, func(t *testing.T) {
			compareWithCheck(t, filepath.Join("..", "examples", ex), nil)
		})
	}
}

// Line breaks that LSP and docutils count differently, CRLF, a BOM and
// characters outside ASCII before the positions.
func TestSameAsCheckLineBreaks(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"docs/ff.rst": "\uFEFF.. sreq:: Form\ffeed ✓\n   :id: FF-1\n   :refines: NOPE-1\n\n" +
			"Text\u2028more text\u0085and more\x1cend\n\n" +
			".. test:: T\r\n   :id: T-1\r\n   :verifies: FF-1, FF-2 (bogus)\r\n\r\n" +
			".. impl:: 𝄞 I\n   :id: I-1\n   :implements: FF-1\n   :colour: red\n",
		"docs/dup.rst": "Pré\n===\n\n.. sreq:: Again\n   :id: FF-1\n",
		"docs/bom.rst": "\uFEFF.. sreq:: Right at the start\n   :id: BOM-1\n   :refines: FF-9\n",
	})
	compareWithCheck(t, root, nil)
}

// A generated tree with planted defects of every kind seggen knows.
func TestSameAsCheckGenerated(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("generates a tree")
	}
	tr, err := gen.New(gen.Options{N: 300, Seed: 7, Defects: true, DefectRate: 0.05, PerFile: 50, FilesPerDir: 64})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if _, err := gen.WriteDir(tr, root, gen.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	compareWithCheck(t, root, nil)
}

// pinTree writes a seg.lock for the tree under root: every link pinned to
// its target's revision, some to another one (stale), with a pin of a
// link that does not exist and a line that cannot be read.
func pinTree(t *testing.T, r *rand.Rand, root string) {
	t.Helper()
	tr, err := check.Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := tr.Run(check.Options{At: at.At})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "seg.lock"), []byte(randlock.Lock(r, c, 4)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Random trees with everything the rules of evidence read: seg.lock pins
// (current, stale, orphan, unreadable), outcomes from a JUnit file named
// in seg.toml and on the command line (--results, --witness), :source:
// files present and missing, dates, maximum ages, waivers of whole tests
// with :cases:.
func TestSameAsCheckEvidence(t *testing.T) {
	t.Parallel()
	seeds := 12
	if testing.Short() {
		seeds = 3
	}
	for seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(seed), 3))
			files := segtest.RandomTree(r).RSTFiles(r, 1+r.IntN(3))
			for range 6 {
				files[fmt.Sprintf("extra/doc-%d.rst", r.IntN(3))] += segtest.NewNode(r)
			}
			segtest.Evidence(r, files)
			files["more-results/flag.xml"] = files["results/run.xml"]
			root := writeTree(t, files)
			pinTree(t, r, root)
			open := func(root string) (*check.Tree, check.Options, error) {
				tr, err := check.Open(root, "")
				return tr, check.Options{Results: []string{filepath.Join(root, "more-results", "flag.xml")}, Witnesses: []string{"I1"}}, err
			}
			compareWithCheck(t, root, open, "--results", filepath.Join(root, "more-results", "flag.xml"), "--witness", "I1")
		})
	}
}

// readTree reads every file under root (root-relative slash paths).
func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// The sphinx-needs example (need types mapped in seg.toml, needextend,
// dynamic functions, link conditions, a JUnit file), broken by random
// edits, with pins on its need links.
func TestSameAsCheckNeeds(t *testing.T) {
	t.Parallel()
	seeds := 8
	if testing.Short() {
		seeds = 2
	}
	for seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(seed), 9))
			files := readTree(t, filepath.Join("..", "examples", "needs"))
			for range 8 {
				segtest.Edit(r, files)
			}
			root := writeTree(t, files)
			pinTree(t, r, root)
			compareWithCheck(t, root, nil)
		})
	}
}

// A tree without requirements: no-requirements has no place in any
// file, and is shown as a message.
func TestSameAsCheckNoRequirements(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{"docs/a.rst": ".. test:: Lonely\n   :id: T-1\n"})
	compareWithCheck(t, root, nil)
}

// After every edit typed into buffers, what the editor has (the
// diagnostics published since the start, each file's last list) is what
// seg check says of a folder holding the buffers' text: the server sends
// every file whose findings changed, and only those need be sent.
func TestSameAsCheckAfterEdits(t *testing.T) {
	t.Parallel()
	seeds, steps := 6, 12
	if testing.Short() {
		seeds = 2
	}
	for seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(seed), 5))
			files := segtest.RandomTree(r).RSTFiles(r, 1+r.IntN(3))
			segtest.Evidence(r, files)
			if seed%3 == 2 {
				files = readTree(t, filepath.Join("..", "examples", "needs"))
			}
			typeAndCompare(t, r, files, steps, true)
		})
	}
}

// Without seg.lock pins or results files, most edits patch the last
// graph and evaluate again only what they reach (graph.Memo,
// evaluate.Update): the editor still shows what seg check reports.
func TestSameAsCheckAfterEditsPatched(t *testing.T) {
	t.Parallel()
	seeds, steps := 6, 24
	if testing.Short() {
		seeds = 2
	}
	for seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(seed), 19))
			typeAndCompare(t, r, segtest.RandomTree(r).RSTFiles(r, 2+r.IntN(3)), steps, false)
		})
	}
}

// Edits that rename IDs in their place in the ID order, or make links
// name such IDs (segtest.Rename), patch the last graph too: links of
// other files dangle and resolve again, and the editor still shows what
// seg check reports (with and without seg.lock pins).
func TestSameAsCheckAfterRenames(t *testing.T) {
	t.Parallel()
	seeds, steps := 6, 24
	if testing.Short() {
		seeds = 2
	}
	for seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(seed), 29))
			edit := func(r *rand.Rand, files map[string]string) string {
				if r.IntN(4) == 0 {
					return segtest.Edit(r, files)
				}
				return segtest.Rename(r, files)
			}
			typeAndCompareEdits(t, r, segtest.RandomTree(r).RSTFiles(r, 2+r.IntN(3)), steps, seed%2 == 1, seed%3 == 2, edit)
		})
	}
}

// With the editor's default settings, statuses are shown in the open
// documents only, as information: what the editor has is seg check's
// findings, and its unsatisfied requirements in the files open, over the
// same random edits (patched and full analyses alike).
func TestSameAsCheckAfterEditsOpenOnly(t *testing.T) {
	t.Parallel()
	seeds, steps := 4, 24
	if testing.Short() {
		seeds = 1
	}
	for seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(seed), 23))
			typeAndCompareWith(t, r, segtest.RandomTree(r).RSTFiles(r, 2+r.IntN(3)), steps, false, true)
		})
	}
}

// typeAndCompare opens the files of a tree in the editor one by one and
// edits them, comparing what the editor has with seg check every few
// edits.
func typeAndCompare(t *testing.T, r *rand.Rand, files map[string]string, steps int, pin bool) {
	typeAndCompareWith(t, r, files, steps, pin, false)
}

// typeAndCompareWith is typeAndCompare; with openOnly, under the
// editor's default settings (statuses in open documents, as information).
func typeAndCompareWith(t *testing.T, r *rand.Rand, files map[string]string, steps int, pin, openOnly bool) {
	typeAndCompareEdits(t, r, files, steps, pin, openOnly, segtest.Edit)
}

// typeAndCompareEdits is typeAndCompareWith over the edits edit makes.
func typeAndCompareEdits(t *testing.T, r *rand.Rand, files map[string]string, steps int, pin, openOnly bool, edit func(*rand.Rand, map[string]string) string) {
	live := writeTree(t, files)
	if pin {
		pinTree(t, r, live)
		lock, _ := os.ReadFile(filepath.Join(live, "seg.lock"))
		files["seg.lock"] = string(lock)
	}
	view := writeTree(t, files)
	var c *client
	if openOnly {
		c = startWith(t, live, at, `{"general":{"positionEncodings":["utf-8"]}}`, defaults)
	} else {
		c = start(t, live, at, `{"general":{"positionEncodings":["utf-8"]}}`)
	}
	versions := map[string]int{}
	statuses := 0 // unsatisfied requirements of open documents compared
	defer func() {
		if openOnly {
			t.Logf("%d statuses in open documents compared", statuses)
		}
	}()
	for step := range steps {
		p := edit(r, files)
		if !strings.HasSuffix(p, ".rst") {
			// The code changed on disk: someone else's.
			writeFiles(t, live, map[string]string{p: files[p]})
			writeFiles(t, view, map[string]string{p: files[p]})
			continue
		}
		// A file the edit deleted is emptied in the editor instead.
		files[p] = files[p]
		text := files[p]
		if versions[p] == 0 {
			c.open(p, text)
		} else {
			b, _ := json.Marshal(text)
			c.notify("textDocument/didChange", fmt.Sprintf(`{"textDocument":{"uri":%q,"version":%d},"contentChanges":[{"text":%s}]}`, c.uri(p), versions[p]+1, b))
		}
		versions[p]++
		writeFiles(t, view, map[string]string{p: text})
		if step%3 != 2 && step != steps-1 {
			continue
		}
		want := checkFindings(t, view)
		if openOnly {
			var open []string
			for _, w := range want {
				file, rest, _ := strings.Cut(w, " ")
				if i := strings.LastIndexByte(file, ':'); i >= 0 {
					file = file[:i]
				}
				if rest, ok := strings.CutPrefix(rest, "warning unsatisfied "); ok {
					if versions[file] == 0 {
						continue
					}
					statuses++
					// Information has no name in severities.
					w = strings.SplitN(w, " ", 2)[0] + "  unsatisfied " + rest
				}
				open = append(open, w)
			}
			slices.Sort(open)
			want = open
		}
		got := serverFindings(t, c, func(file string) []byte {
			if s, ok := files[file]; ok {
				return []byte(s)
			}
			data, _ := os.ReadFile(filepath.Join(live, filepath.FromSlash(file)))
			return data
		})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("step %d (%s): seg check (-) and the editor (+) disagree:\n%s", step, p, diff)
		}
	}
}
