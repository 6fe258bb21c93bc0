package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/config"
	"github.com/seg-trace/seg/results"
)

// seg checks itself: docs/requirements holds seg's own requirements, test
// specifications naming the Go tests that verify them, and one
// implementation per package. CI runs `go test -json ./...` and feeds the
// stream to `seg check docs/requirements --results FILE --witness IDS`
// (docs/self-check.md). This test checks that tree the way CI does, through
// Execute and the real --results and --witness flags, but with go test
// streams written here, so it does not depend on how the rest of the suite
// happens to be doing:
//
//   - tree: the tree has no error, keeps the seed's requirement IDs
//     refining SEG-SYS-002, and every software requirement is refined from
//     a system requirement, implemented, and verified by a test
//     specification with a non-empty :cases:;
//   - witness_lists: every --witness list of SEG-IMPL IDs shown in
//     docs/self-check.md, docs/requirements/README.md and .ci/run names
//     exactly the implementations of the tree;
//   - all_cases_pass: a stream in which a case matching every :cases:
//     entry passes satisfies every requirement, with no diagnostic at all
//     (so every entry is matchable and the structure is complete);
//   - broken_case: the same stream with one case of SEG-SREQ-006's test
//     failing makes SEG-SREQ-006, and only it and the requirements above
//     it, unsatisfied, and the check exits 1.

const (
	selfCheckRoot   = "../docs/requirements"
	selfCheckModule = "github.com/seg-trace/seg/"
	selfCheckAt     = "2026-11-29"
)

// The seed's requirements keep their numbers (shared seed 000).
var selfCheckSeedIDs = []string{"SEG-SREQ-006", "SEG-SREQ-007", "SEG-SREQ-008", "SEG-SREQ-009", "SEG-SREQ-010", "SEG-SREQ-355"}

type selfCheckGraph struct {
	Nodes []struct {
		ID        string `json:"id"`
		Kind      string `json:"kind"`
		Directive string `json:"directive"`
	} `json:"nodes"`
	Edges []struct {
		Type  string `json:"type"`
		From  string `json:"from"`
		To    string `json:"to"`
		State string `json:"state"`
	} `json:"edges"`
}

type selfCheckReport struct {
	Requirements []struct {
		ID      string `json:"id"`
		Verdict string `json:"verdict"`
		Reasons []struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"reasons"`
	} `json:"requirements"`
	Diagnostics []struct {
		Code     string `json:"code"`
		Severity string `json:"severity"`
		Message  string `json:"message"`
		File     string `json:"file"`
		Line     int    `json:"line"`
	} `json:"diagnostics"`
	Unmatched []struct {
		Name string `json:"name"`
	} `json:"unmatched_cases"`
}

func selfCheckExec(t *testing.T, into any, args ...string) int {
	t.Helper()
	var out, errb bytes.Buffer
	code := Execute(args, &out, &errb)
	if code == exitTrouble {
		t.Fatalf("seg %s: exit 2: %s", strings.Join(args, " "), errb.String())
	}
	if errb.Len() > 0 {
		t.Errorf("seg %s: stderr: %s", strings.Join(args, " "), errb.String())
	}
	if err := json.Unmarshal(out.Bytes(), into); err != nil {
		t.Fatalf("seg %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	return code
}

// selfCheckTree is what the test needs to know of docs/requirements.
type selfCheckTree struct {
	graph    selfCheckGraph
	kind     map[string]string   // node ID -> kind
	sreqs    []string            // software requirements (directive sreq), sorted
	impls    []string            // implementations, sorted
	parents  map[string][]string // requirement -> the requirements it refines
	verifies map[string][]string // test -> requirements it verifies (active edges)
	// patterns are the :cases: entries by test specification, as the
	// results reader takes them.
	patterns map[string][]string
}

func loadSelfCheckTree(t *testing.T) *selfCheckTree {
	t.Helper()
	tr := &selfCheckTree{
		kind:     map[string]string{},
		parents:  map[string][]string{},
		verifies: map[string][]string{},
		patterns: map[string][]string{},
	}
	selfCheckExec(t, &tr.graph, "graph", "--format", "json", "--at", selfCheckAt, selfCheckRoot)
	for _, n := range tr.graph.Nodes {
		tr.kind[n.ID] = n.Kind
		switch {
		case n.Kind == "requirement" && n.Directive == "sreq":
			tr.sreqs = append(tr.sreqs, n.ID)
		case n.Kind == "implementation":
			tr.impls = append(tr.impls, n.ID)
		}
	}
	sort.Strings(tr.sreqs)
	sort.Strings(tr.impls)
	for _, e := range tr.graph.Edges {
		switch e.Type {
		case "refines":
			tr.parents[e.From] = append(tr.parents[e.From], e.To)
		case "verifies":
			if e.State == "active" {
				tr.verifies[e.From] = append(tr.verifies[e.From], e.To)
			}
		}
	}

	// :cases: is not part of the graph: read it as the results reader does.
	cfg, err := config.Load(selfCheckRoot, "")
	if err != nil {
		t.Fatal(err)
	}
	files, _, err := check.ParseTree(selfCheckRoot, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		for _, p := range results.Patterns(f.Nodes) {
			tr.patterns[p.Test] = append(tr.patterns[p.Test], p.Text)
		}
	}
	return tr
}

// above is id and every requirement it refines, transitively.
func (tr *selfCheckTree) above(id string) map[string]bool {
	out := map[string]bool{}
	var walk func(string)
	walk = func(r string) {
		if out[r] {
			return
		}
		out[r] = true
		for _, p := range tr.parents[r] {
			walk(p)
		}
	}
	walk(id)
	return out
}

func TestSelfCheck(t *testing.T) {
	tr := loadSelfCheckTree(t)

	t.Run("tree", func(t *testing.T) {
		var rep selfCheckReport
		selfCheckExec(t, &rep, "check", "--format", "json", "--color", "never", "--at", selfCheckAt, selfCheckRoot)
		for _, d := range rep.Diagnostics {
			if d.Severity == "error" {
				t.Errorf("%s:%d: %s [%s]", d.File, d.Line, d.Message, d.Code)
			}
		}
		for _, id := range selfCheckSeedIDs {
			if tr.kind[id] != "requirement" {
				t.Errorf("seed requirement %s is missing", id)
			} else if !slices.Contains(tr.parents[id], "SEG-SYS-002") {
				t.Errorf("%s refines %v, want SEG-SYS-002 as in the seed", id, tr.parents[id])
			}
		}
		if len(tr.sreqs) < 30 {
			t.Errorf("only %d software requirements", len(tr.sreqs))
		}
		implemented := map[string]bool{}
		for _, e := range tr.graph.Edges {
			if e.Type == "implements" && e.State == "active" {
				implemented[e.To] = true
			}
		}
		// A test is evidenced by the cases it names or, for a measurement
		// (the speed targets), by outcomes recorded by hand.
		recorded := map[string]bool{}
		for _, e := range tr.graph.Edges {
			if e.Type == "confirms" {
				recorded[e.To] = true
			}
		}
		tested := map[string][]string{} // requirement -> evidenced tests
		for test, reqs := range tr.verifies {
			if len(tr.patterns[test]) == 0 && !recorded[test] {
				t.Errorf("test specification %s has neither :cases: nor recorded outcomes", test)
				continue
			}
			for _, r := range reqs {
				tested[r] = append(tested[r], test)
			}
		}
		for _, id := range tr.sreqs {
			if len(tested[id]) == 0 {
				t.Errorf("software requirement %s has no active test specification with cases or recorded outcomes", id)
			}
			if !implemented[id] {
				t.Errorf("software requirement %s has no active implementation", id)
			}
			sys := false
			for r := range tr.above(id) {
				sys = sys || strings.HasPrefix(r, "SEG-SYS-")
			}
			if !sys {
				t.Errorf("software requirement %s is not refined from a system requirement", id)
			}
		}
		for test, pats := range tr.patterns {
			for _, p := range pats {
				if !strings.HasPrefix(p, selfCheckModule) {
					t.Errorf("%s: case %q is not a go test -json name of this module", test, p)
				}
			}
		}
	})

	// The witnesses CI passes: every implementation of the tree.
	witness := strings.Join(tr.impls, ",")
	t.Run("witness_lists", func(t *testing.T) {
		// The command users copy from docs/self-check.md, and CI's when it
		// has one, must name every implementation and nothing else.
		for _, f := range []string{"../docs/self-check.md", "../docs/requirements/README.md", "../.ci/run"} {
			data, err := os.ReadFile(f)
			if err != nil {
				if f == "../docs/self-check.md" {
					t.Error(err)
				}
				continue
			}
			lists := regexp.MustCompile(`--witness[= ]+"?(SEG-IMPL-[A-Za-z0-9_.,-]*)`).FindAllSubmatch(data, -1)
			if len(lists) == 0 && f == "../docs/self-check.md" {
				t.Errorf("%s shows no --witness list", f)
			}
			for _, m := range lists {
				got := strings.Split(string(m[1]), ",")
				sort.Strings(got)
				if diff := cmp.Diff(tr.impls, got); diff != "" {
					t.Errorf("%s: --witness is not the list of implementations in %s (-want +got):\n%s", f, selfCheckRoot, diff)
				}
			}
		}
	})

	// One passing case for every :cases: entry.
	var cases []string
	seen := map[string]bool{}
	var tests []string
	for test := range tr.patterns {
		tests = append(tests, test)
	}
	sort.Strings(tests)
	for _, test := range tests {
		for _, p := range tr.patterns[test] {
			name := caseFor(p)
			if !results.Match(p, name) {
				t.Fatalf("made case %q for %q, which does not match it", name, p)
			}
			if !seen[name] {
				seen[name] = true
				cases = append(cases, name)
			}
		}
	}

	t.Run("all_cases_pass", func(t *testing.T) {
		stream := goTestStream(t, cases, nil)
		var rep selfCheckReport
		code := selfCheckExec(t, &rep, "check", "--format", "json", "--color", "never", "--at", selfCheckAt,
			"--results", stream, "--witness", witness, selfCheckRoot)
		for _, d := range rep.Diagnostics {
			t.Errorf("%s:%d: %s: %s [%s]", d.File, d.Line, d.Severity, d.Message, d.Code)
		}
		for _, r := range rep.Requirements {
			if r.Verdict != "satisfied" {
				t.Errorf("%s is %s: %+v", r.ID, r.Verdict, r.Reasons)
			}
		}
		if n := countKind(tr, "requirement"); len(rep.Requirements) != n {
			t.Errorf("%d verdicts for %d requirements", len(rep.Requirements), n)
		}
		if len(rep.Unmatched) != 0 {
			t.Errorf("unmatched cases: %+v", rep.Unmatched)
		}
		if code != exitOK {
			t.Errorf("exit %d, want 0", code)
		}
	})

	t.Run("broken_case", func(t *testing.T) {
		// A case of SEG-SREQ-006's test that no other test's :cases: names.
		var broken string
	find:
		for _, test := range tests {
			if !slices.Contains(tr.verifies[test], "SEG-SREQ-006") {
				continue
			}
			for _, p := range tr.patterns[test] {
				if name := caseFor(p); !matchedElsewhere(tr, name, test) {
					broken = name
					break find
				}
			}
		}
		if broken == "" {
			t.Fatal("SEG-SREQ-006 has no test case of its own to break")
		}
		stream := goTestStream(t, cases, map[string]bool{broken: true})
		var rep selfCheckReport
		code := selfCheckExec(t, &rep, "check", "--format", "json", "--color", "never", "--at", selfCheckAt,
			"--results", stream, "--witness", witness, selfCheckRoot)
		want := tr.above("SEG-SREQ-006")
		if !want["SEG-SYS-002"] || !want["SEG-SYS-001"] {
			t.Errorf("SEG-SREQ-006 is not below SEG-SYS-002 and SEG-SYS-001: %v", want)
		}
		for _, r := range rep.Requirements {
			if got := r.Verdict == "unsatisfied"; got != want[r.ID] {
				t.Errorf("%s is %s with case %s failing: %+v", r.ID, r.Verdict, broken, r.Reasons)
			}
			if r.ID == "SEG-SREQ-006" {
				var codes []string
				for _, reason := range r.Reasons {
					codes = append(codes, reason.Code)
				}
				if !slices.Contains(codes, "outcome-failed") {
					t.Errorf("SEG-SREQ-006 reasons %v, want outcome-failed", codes)
				}
			}
		}
		if code != exitFailed {
			t.Errorf("exit %d, want 1", code)
		}
	})
}

// caseFor makes a case name that pattern p matches: each wildcard becomes
// a plain character.
func caseFor(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '*':
			b.WriteString("x")
		case '?':
			b.WriteByte('_')
		case '\\':
			if i+1 < len(p) {
				i++
				b.WriteByte(p[i])
			}
		case '[':
			end := strings.IndexByte(p[i+1:], ']')
			if end < 0 || p[i+1] == '!' || p[i+1] == '^' {
				b.WriteByte(c) // a literal '[', or a negated class: left for Match to refuse
				continue
			}
			b.WriteByte(p[i+1])
			i += 1 + end
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func matchedElsewhere(tr *selfCheckTree, name, test string) bool {
	for other, pats := range tr.patterns {
		if other == test {
			continue
		}
		for _, p := range pats {
			if results.Match(p, name) {
				return true
			}
		}
	}
	return false
}

// goTestStream writes a go test -json stream in which every case runs and
// passes, except the failing ones, and returns its absolute path.
func goTestStream(t *testing.T, cases []string, failing map[string]bool) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	type event struct {
		Time    string  `json:"Time"`
		Action  string  `json:"Action"`
		Package string  `json:"Package"`
		Test    string  `json:"Test,omitempty"`
		Output  string  `json:"Output,omitempty"`
		Elapsed float64 `json:"Elapsed,omitempty"`
	}
	const at = "2026-11-29T12:00:00Z"
	byPkg := map[string][]string{}
	var pkgs []string
	for _, c := range cases {
		rest, ok := strings.CutPrefix(c, selfCheckModule)
		dot := strings.IndexByte(rest, '.')
		if !ok || dot < 0 {
			t.Fatalf("case %q is not named package.Test", c)
		}
		pkg, test := selfCheckModule+rest[:dot], rest[dot+1:]
		if byPkg[pkg] == nil {
			pkgs = append(pkgs, pkg)
		}
		byPkg[pkg] = append(byPkg[pkg], test)
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		pkgFailed := false
		enc.Encode(event{Time: at, Action: "start", Package: pkg})
		for _, test := range byPkg[pkg] {
			enc.Encode(event{Time: at, Action: "run", Package: pkg, Test: test})
			action := "pass"
			if failing[pkg+"."+test] {
				action, pkgFailed = "fail", true
				enc.Encode(event{Time: at, Action: "output", Package: pkg, Test: test,
					Output: "    selfcheck_test.go:1: deliberately broken\n"})
			}
			enc.Encode(event{Time: at, Action: action, Package: pkg, Test: test, Elapsed: 0.01})
		}
		action := "pass"
		if pkgFailed {
			action = "fail"
		}
		enc.Encode(event{Time: at, Action: action, Package: pkg, Elapsed: 0.1})
	}
	path := filepath.Join(t.TempDir(), "go-test.json")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func countKind(tr *selfCheckTree, kind string) int {
	n := 0
	for _, k := range tr.kind {
		if k == kind {
			n++
		}
	}
	return n
}
