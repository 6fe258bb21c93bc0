package check

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/revision"
)

// The rules of docs/revisions.md, one case each, through the whole
// pipeline: RST files, seg.lock and seg.toml as a user writes them.

// base is a satisfied leaf R (under parent P) whose test T has outcome O
// on implementation I, whose source is src/i.c. Cases change one thing.
var base = map[string]string{
	"req.rst": `
.. sreq:: Parent
   :id: P

.. sreq:: Brake on command
   :id: R
   :refines: P
`,
	"test.rst": `
.. test:: Brake latency
   :id: T
   :verifies: R

.. impl:: Controller
   :id: I
   :implements: R
   :source: src/i.c

.. outcome:: Bench run
   :id: O
   :confirms: T
   :witnesses: I
   :result: passed
   :date: 2026-11-01
`,
	"src/i.c": "void brake(void) {}\n",
}

// pinAll is a seg.lock line for each link of base, each to its target's
// current revision ({X} is replaced by X's revision).
const pinAll = `R refines P {P}
T verifies R {R}
I implements R {R}
O confirms T {T}
O witnesses I {I}
`

var revs = regexp.MustCompile(`\{([A-Z0-9-]+)\}`)

type revCase struct {
	name  string
	files map[string]string // added to base, replacing; "" deletes
	lock  string            // seg.lock, {X} standing for X's revision now
	after map[string]string // changed once seg.lock is written
	at    string            // the evaluation date, 2026-11-29 if ""
	// want is the status of R (and of P, which has nothing else).
	want string
	// reasons are codes in R's verdict (blocking or notes); diags are
	// "code file:line:col" of every diagnostic.
	reasons []string
	diags   []string
}

func TestRevisionRules(t *testing.T) {
	stale := "0000000000000000"
	cases := []revCase{
		{name: "no seg.lock: every link current", want: "satisfied"},
		{name: "every link pinned to now", lock: pinAll, want: "satisfied"},
		{name: "one link pinned, the others not", lock: "T verifies R {R}\n", want: "satisfied"},
		{
			name: "stale verifies: the edge is not active",
			lock: strings.Replace(pinAll, "T verifies R {R}", "T verifies R "+stale, 1), want: "unproven",
			reasons: []string{"no-active-verifies", "stale-link"},
			diags:   []string{"stale-link test.rst:4:15"},
		},
		{
			name: "stale implements: the edge is not active",
			lock: strings.Replace(pinAll, "I implements R {R}", "I implements R "+stale, 1), want: "unproven",
			reasons: []string{"no-active-implements", "stale-link"},
			diags:   []string{"stale-link test.rst:8:17"},
		},
		{
			name: "stale confirms: the outcome does not count for the test",
			lock: strings.Replace(pinAll, "O confirms T {T}", "O confirms T "+stale, 1), want: "unproven",
			reasons: []string{"no-confirming-outcome", "stale-evidence"},
			diags:   []string{"stale-link test.rst:13:15"},
		},
		{
			name: "stale witnesses: the outcome does not count",
			lock: strings.Replace(pinAll, "O witnesses I {I}", "O witnesses I "+stale, 1), want: "unproven",
			reasons: []string{"no-confirming-outcome", "stale-evidence"},
			diags:   []string{"stale-link test.rst:14:16"},
		},
		{
			name: "the source changed after the witnesses link was pinned",
			lock: pinAll, after: map[string]string{"src/i.c": "void brake(void) { apply(); }\n"}, want: "unproven",
			reasons: []string{"no-confirming-outcome", "stale-evidence"},
			diags:   []string{"stale-link test.rst:14:16"},
		},
		{
			name: "one stale witnesses link of two: the other still counts",
			files: map[string]string{"more.rst": `
.. impl:: Monitor
   :id: I2
   :implements: P
`, "test.rst": strings.Replace(base["test.rst"], ":witnesses: I", ":witnesses: I, I2", 1)},
			lock: pinAll[:strings.Index(pinAll, "O witnesses")] + "O witnesses I " + stale + "\nO witnesses I2 {I2}\n", want: "satisfied",
			diags: []string{"stale-link test.rst:14:16"},
		},
		{
			name: "stale refines: a warning only",
			lock: strings.Replace(pinAll, "R refines P {P}", "R refines P "+stale, 1), want: "satisfied",
			diags: []string{"stale-link req.rst:7:14"},
		},
		{
			name: "a stale excuses link excuses nothing",
			files: map[string]string{
				"test.rst": strings.Replace(base["test.rst"], ":result: passed", ":result: failed", 1),
				"waiver.rst": `
.. waiver:: Known bench fault
   :id: W
   :excuses: O
`},
			lock: pinAll + "W excuses O " + stale + "\n", want: "failing",
			reasons: []string{"outcome-failed"},
			diags:   []string{"stale-link waiver.rst:4:14"},
		},
		{
			name: "a current excuses link excuses",
			files: map[string]string{
				"test.rst": strings.Replace(base["test.rst"], ":result: passed", ":result: failed", 1),
				"waiver.rst": `
.. waiver:: Known bench fault
   :id: W
   :excuses: O
`},
			lock: pinAll + "W excuses O {O}\n", want: "satisfied",
			reasons: []string{"outcome-excused"},
		},
		{
			name:  "strict review, no pins",
			files: map[string]string{"seg.toml": "[review]\nrequire-pins = true\n"}, want: "unproven",
			reasons: []string{"no-active-verifies", "no-active-implements", "no-confirming-outcome", "unreviewed-link", "unreviewed-evidence"},
			diags: []string{"unreviewed-link req.rst:7:14", "unreviewed-link test.rst:4:15", "unreviewed-link test.rst:8:17",
				"unreviewed-link test.rst:13:15", "unreviewed-link test.rst:14:16"},
		},
		{
			name:  "strict review, every link pinned",
			files: map[string]string{"seg.toml": "[review]\nrequire-pins = true\n"}, lock: pinAll, want: "satisfied",
		},
		{
			name: "an outcome dated after the evaluation date did not exist then",
			at:   "2026-10-31", want: "unproven",
			reasons: []string{"no-confirming-outcome", "future-evidence"},
		},
		{name: "an outcome dated on the evaluation date counts", at: "2026-11-01", want: "satisfied"},
		{
			name:  "older than the test's :max-age:",
			files: map[string]string{"test.rst": strings.Replace(base["test.rst"], ":verifies: R", ":verifies: R\n   :max-age: 27", 1)},
			want:  "unproven", reasons: []string{"no-confirming-outcome", "expired-evidence"},
		},
		{
			name:  "exactly the test's :max-age: old still counts",
			files: map[string]string{"test.rst": strings.Replace(base["test.rst"], ":verifies: R", ":verifies: R\n   :max-age: 28", 1)},
			want:  "satisfied",
		},
		{
			name:  "older than [evidence] max-age-days",
			files: map[string]string{"seg.toml": "[evidence]\nmax-age-days = 10\n"},
			want:  "unproven", reasons: []string{"expired-evidence"},
		},
		{
			name: "a test's own :max-age: replaces the global one, larger too",
			files: map[string]string{"seg.toml": "[evidence]\nmax-age-days = 10\n",
				"test.rst": strings.Replace(base["test.rst"], ":verifies: R", ":verifies: R\n   :max-age: 60", 1)},
			want: "satisfied",
		},
		{
			name: "undated where a maximum age applies",
			files: map[string]string{"seg.toml": "[evidence]\nmax-age-days = 400\n",
				"test.rst": strings.Replace(base["test.rst"], "   :date: 2026-11-01\n", "", 1)},
			want: "unproven", reasons: []string{"undated-evidence"},
		},
		{
			name:  "a :max-age: seg cannot read excludes every outcome",
			files: map[string]string{"test.rst": strings.Replace(base["test.rst"], ":verifies: R", ":verifies: R\n   :max-age: 3 months", 1)},
			want:  "unproven", reasons: []string{"expired-evidence"},
			diags: []string{"invalid-max-age test.rst:5:14"},
		},
		{
			name:  "bad input is never excluded: an invalid outcome with a stale pin counts against",
			files: map[string]string{"test.rst": strings.Replace(base["test.rst"], ":result: passed", ":result: green", 1)},
			lock:  strings.Replace(pinAll, "O confirms T {T}", "O confirms T "+stale, 1), want: "unproven",
			reasons: []string{"outcome-invalid"},
			diags:   []string{"stale-link test.rst:13:15", "invalid-result test.rst:15:13"},
		},
		{
			name: "a waiver dated after the evaluation date excuses nothing",
			files: map[string]string{
				"test.rst": strings.Replace(base["test.rst"], ":result: passed", ":result: failed", 1),
				"waiver.rst": `
.. waiver:: Known bench fault
   :id: W
   :excuses: O
   :date: 2026-12-05
`},
			want: "failing", reasons: []string{"outcome-failed"},
		},
		{
			name: ":cases: on a waiver of an outcome is an error, and the waiver excuses nothing",
			files: map[string]string{
				"test.rst": strings.Replace(base["test.rst"], ":result: passed", ":result: failed", 1),
				"waiver.rst": `
.. waiver:: Known bench fault
   :id: W
   :excuses: O
   :cases: brake.*
`},
			want: "failing", reasons: []string{"outcome-failed"},
			diags: []string{"cases-not-allowed waiver.rst:5:4"},
		},
		{
			name: "a waiver expiring within 30 days is warned of",
			files: map[string]string{
				"test.rst": strings.Replace(base["test.rst"], ":result: passed", ":result: failed", 1),
				"waiver.rst": `
.. waiver:: Known bench fault
   :id: W
   :excuses: O
   :expires: 2026-12-10
`},
			want: "satisfied", reasons: []string{"outcome-excused"},
			diags: []string{"expiring-waiver waiver.rst:2:1"},
		},
		{
			name: "[check] waiver_warn_days = 0: no warning",
			files: map[string]string{
				"seg.toml": "[check]\nwaiver_warn_days = 0\n",
				"test.rst": strings.Replace(base["test.rst"], ":result: passed", ":result: failed", 1),
				"waiver.rst": `
.. waiver:: Known bench fault
   :id: W
   :excuses: O
   :expires: 2026-12-10
`},
			want: "satisfied", reasons: []string{"outcome-excused"},
		},
		{
			name:  "a :source: file that appears after the pin makes the link stale",
			files: map[string]string{"src/i.c": ""}, lock: pinAll, after: map[string]string{"src/i.c": "void brake(void) {}\n"},
			want: "unproven", reasons: []string{"stale-evidence"},
			diags: []string{"stale-link test.rst:14:16"},
		},
		{
			name:  "a :source: that matches no file",
			files: map[string]string{"src/i.c": ""}, want: "satisfied",
			diags: []string{"missing-source test.rst:9:13"},
		},
		{
			name: "globs and folders in :source:",
			files: map[string]string{
				"test.rst":  strings.Replace(base["test.rst"], ":source: src/i.c", ":source: src/**/*.c, include", 1),
				"src/x/j.c": "int j;\n", "include/i.h": "void brake(void);\n",
			},
			want: "satisfied",
		},
		{
			name: "seg.lock lines seg cannot read, duplicates and orphans",
			lock: "# comment\nT verifies R {R}\nT  verifies R " + stale + "\nO confirms T\nX verifies R {R}\nO confirms T {T}\nO witnesses I {I}\nI implements R {R}\nR refines P nothex\n",
			want: "unproven", reasons: []string{"no-active-verifies", "stale-link"},
			diags: []string{"duplicate-pin seg.lock:3:1", "invalid-pin seg.lock:4:13", "orphan-pin seg.lock:5:1",
				"invalid-pin seg.lock:9:13", "stale-link test.rst:4:15"},
		},
		// Found by internal/revref (TestRevisionReference).
		{
			name:  "invalid-pin at the first wrong field, left to right; a missing field right after the last",
			lock:  pinAll + "O confirms T zz00000000000000 extra\nT verify R {R} # reviewed\nO witnesses I   \n",
			want:  "satisfied",
			diags: []string{"invalid-pin seg.lock:6:14", "invalid-pin seg.lock:7:3", "invalid-pin seg.lock:8:14"},
		},
		{
			name: "every line of an orphan pin is warned of; a duplicate is shown at its first field",
			lock: pinAll + "X verifies R {R}\nX verifies R {R}\n  T verifies R {R}\n",
			want: "satisfied",
			diags: []string{"orphan-pin seg.lock:6:1", "duplicate-pin seg.lock:7:1", "orphan-pin seg.lock:7:1",
				"duplicate-pin seg.lock:8:3"},
		},
		{
			name:  "a :max-age: with a sign or a leading zero is invalid and excludes every outcome",
			files: map[string]string{"test.rst": strings.Replace(base["test.rst"], ":verifies: R", ":verifies: R\n   :max-age: 030", 1)},
			want:  "unproven", reasons: []string{"expired-evidence"},
			diags: []string{"invalid-max-age test.rst:5:14"},
		},
		{
			name:  "a body indented further than the options, or with a tab, is the same text",
			files: map[string]string{"req.rst": reqWithBody("   The brake applies within 10 ms.\n")},
			lock:  pinAll, after: map[string]string{"req.rst": reqWithBody("\t  The brake applies within 10 ms.\n")},
			want: "satisfied",
		},
		{
			name:  "a word of a requirement's body changed: the links to it are stale",
			files: map[string]string{"req.rst": reqWithBody("   The brake applies within 10 ms.\n")},
			lock:  pinAll, after: map[string]string{"req.rst": reqWithBody("   The brake applies within 20 ms.\n")},
			want: "unproven", reasons: []string{"no-active-verifies", "no-active-implements", "stale-link"},
			diags: []string{"stale-link test.rst:4:15", "stale-link test.rst:8:17"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { runRevCase(t, tc) })
	}
}

// reqWithBody is base's req.rst with body as R's content.
func reqWithBody(body string) string {
	return base["req.rst"] + "\n" + body
}

func runRevCase(t *testing.T, tc revCase) {
	root := t.TempDir()
	files := map[string]string{}
	for k, v := range base {
		files[k] = v
	}
	for k, v := range tc.files {
		files[k] = v
		if v == "" {
			delete(files, k)
		}
	}
	writeTree(t, root, files)
	at, _ := time.Parse(time.DateOnly, "2026-11-29")
	if tc.at != "" {
		at, _ = time.Parse(time.DateOnly, tc.at)
	}
	run := func() *Check {
		tr, err := Open(root, "")
		if err != nil {
			t.Fatal(err)
		}
		c, _, err := tr.Run(Options{At: at})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if tc.lock != "" {
		// The revisions now, from a run without seg.lock.
		c := run()
		lock := revs.ReplaceAllStringFunc(tc.lock, func(m string) string {
			n, ok := c.Graph.Lookup(m[1 : len(m)-1])
			if !ok {
				t.Fatalf("no node %s", m)
			}
			return revision.String(n.Revision())
		})
		writeTree(t, root, map[string]string{"seg.lock": lock})
	}
	writeTree(t, root, tc.after)
	c := run()
	status := map[string]string{}
	var reasons []string
	for _, r := range c.Requirements() {
		status[r.Node.ID()] = r.Verdict.Status.String()
		if r.Node.ID() == "R" {
			for _, re := range r.Verdict.Reasons {
				reasons = append(reasons, re.Code.Name)
			}
		}
	}
	if status["R"] != tc.want || status["P"] != tc.want {
		t.Errorf("R is %s and P %s, want %s; reasons %q", status["R"], status["P"], tc.want, reasons)
	}
	for _, code := range tc.reasons {
		if !slices.Contains(reasons, code) {
			t.Errorf("R's reasons %q lack %s", reasons, code)
		}
	}
	var diags []string
	for _, d := range c.Diagnostics {
		p := c.Files.Position(d.Span.Start)
		diags = append(diags, fmt.Sprintf("%s %s:%d:%d", d.Code.Name, p.Filename, p.Line, p.Column))
	}
	if diff := cmp.Diff(tc.diags, diags); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// A :source: file that cannot be read is unreadable-file, never a
// revision that ignores it.
func TestUnreadableSource(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every file")
	}
	root := t.TempDir()
	writeTree(t, root, base)
	if err := os.Chmod(filepath.Join(root, "src", "i.c"), 0); err != nil {
		t.Fatal(err)
	}
	tr, err := Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := tr.Run(Options{At: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, d := range c.Diagnostics {
		codes = append(codes, d.Code.Name+" "+c.Files.Position(d.Span.Start).String())
	}
	if diff := cmp.Diff([]string{"unreadable-file test.rst:9:13"}, codes); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
