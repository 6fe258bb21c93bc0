package results

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seg-trace/seg/parser"
)

// These tests read results files that real runners write during the test
// run. A runner that is missing skips its test with what to install; with
// SEG_REQUIRE_RUNNERS=1 (as CI sets it) a missing runner fails the test.

const gotestsumVersion = "v1.13.0"

func missingRunner(t *testing.T, msg string) {
	t.Helper()
	if os.Getenv("SEG_REQUIRE_RUNNERS") == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

func goTool(t *testing.T) string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err != nil {
		missingRunner(t, "no go command on PATH")
	}
	return p
}

// goEnv is the environment of a go command run on the test module: no
// network, no workspace, this toolchain.
func goEnv() []string {
	return append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=-mod=mod")
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// goModule writes a small module whose tests pass, fail, skip, have
// subtests, panic, and do not build.
func goModule(t *testing.T) string {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/segdemo\n\ngo 1.25\n",
		"leaf/leaf_test.go": `package leaf

import "testing"

func TestPass(t *testing.T) {}
func TestFail(t *testing.T) { t.Fatal("clause b flips nothing") }
func TestSkip(t *testing.T) { t.Skip("needs a database") }
func TestSub(t *testing.T) {
	t.Run("a", func(t *testing.T) {})
	t.Run("b", func(t *testing.T) { t.Error("wrong verdict") })
	t.Run("s", func(t *testing.T) { t.Skip() })
}
func TestAttr(t *testing.T) { t.Attr("seg.test", "TS-ATTR") }
`,
		"crash/crash_test.go": `package crash

import "testing"

func TestBeforeCrash(t *testing.T) {}
func TestCrash(t *testing.T)       { panic("index out of range") }
func TestNeverRuns(t *testing.T)   {}
`,
		"broken/broken_test.go": `package broken

import "testing"

func TestX(t *testing.T) { undefinedFunction() }
`,
	})
	return dir
}

// goTestJSON runs go test -json on the module and returns the stream.
func goTestJSON(t *testing.T, dir string) []byte {
	cmd := exec.Command(goTool(t), "test", "-json", "-count=1", "./...")
	cmd.Dir, cmd.Env = dir, goEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if len(out) == 0 {
		t.Fatalf("go test -json wrote nothing: %v\n%s", err, stderr.Bytes())
	}
	return out
}

// byName maps case names to their results, in run order.
func byName(cases []Case) map[string][]string {
	m := map[string][]string{}
	for _, c := range cases {
		m[c.Name] = append(m[c.Name], c.Result)
	}
	return m
}

// lineAt returns line n (1-based) of data.
func lineAt(data []byte, n int) string {
	lines := strings.Split(string(data), "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}

func TestGoTestJSON(t *testing.T) {
	t.Parallel() // waits on the runner, a process of its own
	dir := goModule(t)
	data := goTestJSON(t, dir)
	cases, diags := ReadCases(src("build/go-test.json", data))
	if len(diags) != 0 {
		t.Errorf("diagnostics: %v", diags)
	}
	const m = demoModule
	want := demoResults(map[string][]string{
		m + "crash.TestCrash": {Error},
		m + "broken":          {Error},
	})
	if diff := cmp.Diff(want, byName(cases)); diff != "" {
		t.Errorf("cases (-want +got):\n%s", diff)
	}
	for i, c := range cases {
		p := tfs.Position(c.Pos)
		if c.Run != 1 || p.Filename != "build/go-test.json" || p.Column != 1 {
			t.Errorf("case %q: run %d, position %s", c.Name, c.Run, p)
		}
		if i > 0 && p.Line <= tfs.Position(cases[i-1].Pos).Line {
			t.Errorf("case %q at %s is not after the case before it", c.Name, p)
		}
		line := lineAt(data, p.Line)
		want := `"Package":"` + c.Covers + `"`
		if c.Covers == "" {
			rest := strings.TrimPrefix(c.Name, m)
			want = `"Test":"` + rest[strings.IndexByte(rest, '.')+1:] + `"`
		}
		if !strings.Contains(line, want) {
			t.Errorf("case %q: line %d is %s, want it to hold %s", c.Name, p.Line, line, want)
		}
		switch c.Name {
		case m + "leaf.TestAttr":
			if diff := cmp.Diff(map[string][]string{"seg.test": {"TS-ATTR"}}, c.Properties); diff != "" {
				t.Errorf("TestAttr properties (-want +got):\n%s", diff)
			}
		case m + "crash.TestCrash":
			if !strings.HasPrefix(c.Message, "panic: index out of range") {
				t.Errorf("TestCrash message = %q", c.Message)
			}
		case m + "leaf.TestFail":
			if !strings.HasSuffix(c.Message, "clause b flips nothing") {
				t.Errorf("TestFail message = %q", c.Message)
			}
		}
	}

	// The same run as outcomes.
	files := []*parser.File{{Path: "docs/t.rst", Nodes: []parser.Node{
		testNode("docs/t.rst", "TS-LEAF", 1, [2]string{"cases", m + "leaf.TestSub/*, " + m + "leaf.TestPass"}),
		testNode("docs/t.rst", "TS-CRASH", 5, [2]string{"cases", m + "crash.*"}),
		testNode("docs/t.rst", "TS-BROKEN", 9, [2]string{"cases", m + "broken.TestX"}),
		{Kind: parser.Implementation, ID: "IMPL"},
	}}}
	outs, unmatched, diags := Outcomes(files, []Source{withWitnesses(src("build/go-test.json", data), "IMPL")})
	if len(diags) != 0 {
		t.Errorf("diagnostics: %v", diags)
	}
	got := map[string]string{}
	for _, o := range outs {
		got[o.Title] = o.Option("confirms").Value + " " + o.Option("result").Value
	}
	wantOuts := map[string]string{
		m + "leaf.TestPass":         "TS-LEAF passed",
		m + "leaf.TestSub/a":        "TS-LEAF passed",
		m + "leaf.TestSub/b":        "TS-LEAF failed",
		m + "leaf.TestSub/s":        "TS-LEAF skipped",
		m + "crash.TestBeforeCrash": "TS-CRASH passed",
		m + "crash.TestCrash":       "TS-CRASH error",
		m + "broken":                "TS-BROKEN error",
		m + "leaf.TestAttr":         "TS-ATTR passed",
	}
	if diff := cmp.Diff(wantOuts, got); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	var names []string
	for _, c := range unmatched {
		names = append(names, strings.TrimPrefix(c.Name, m))
	}
	if diff := cmp.Diff([]string{"leaf.TestFail", "leaf.TestSkip", "leaf.TestSub"}, names); diff != "" {
		t.Errorf("unmatched (-want +got):\n%s", diff)
	}
}

// gotestsum finds a gotestsum command: on PATH, in GOBIN or GOPATH/bin, or
// else through `go run` from the module proxy.
func gotestsum(t *testing.T) []string {
	if p, err := exec.LookPath("gotestsum"); err == nil {
		return []string{p}
	}
	goCmd := goTool(t)
	for _, v := range []string{"GOBIN", "GOPATH"} {
		out, err := exec.Command(goCmd, "env", v).Output()
		if err != nil || strings.TrimSpace(string(out)) == "" {
			continue
		}
		for _, dir := range filepath.SplitList(strings.TrimSpace(string(out))) {
			if v == "GOPATH" {
				dir = filepath.Join(dir, "bin")
			}
			if p := filepath.Join(dir, "gotestsum"); isExec(p) {
				return []string{p}
			}
		}
	}
	run := []string{goCmd, "run", "gotest.tools/gotestsum@" + gotestsumVersion}
	cmd := exec.Command(run[0], append(run[1:], "--version")...)
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		missingRunner(t, "gotestsum is not available (install it: go install gotest.tools/gotestsum@"+
			gotestsumVersion+"): "+strings.TrimSpace(string(out)))
	}
	return run
}

func isExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

func TestGotestsumJUnit(t *testing.T) {
	t.Parallel() // waits on the runner, a process of its own
	dir := goModule(t)
	stream := filepath.Join(dir, "go-test.json")
	if err := os.WriteFile(stream, goTestJSON(t, dir), 0o644); err != nil {
		t.Fatal(err)
	}
	junit := filepath.Join(dir, "junit.xml")
	// gotestsum reads the very stream read above: the JUnit file is of the
	// same run.
	args := append(gotestsum(t), "--junitfile", junit, "--format", "standard-quiet",
		"--raw-command", "--", "cat", stream)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Env = dir, append(goEnv(), "GOPROXY=")
	out, _ := cmd.CombinedOutput() // it fails: the run has failures
	data, err := os.ReadFile(junit)
	if err != nil {
		t.Fatalf("gotestsum wrote no JUnit file: %v\n%s", err, out)
	}
	cases, diags := ReadCases(src("build/junit.xml", data))
	if len(diags) != 0 {
		t.Errorf("diagnostics: %v", diags)
	}
	const m = demoModule
	want := demoResults(map[string][]string{
		m + "crash.TestCrash": {Failed}, // gotestsum has no <error> for a panic
		"TestMain":            {Failed}, // gotestsum's stand-in for the package that did not build
	})
	if diff := cmp.Diff(want, byName(cases)); diff != "" {
		t.Errorf("cases (-want +got):\n%s", diff)
	}
	checkTestcaseLines(t, data, cases)
}

// checkTestcaseLines checks that each case points at its <testcase start
// tag (or, for a rerun, at the rerun element).
func checkTestcaseLines(t *testing.T, data []byte, cases []Case) {
	t.Helper()
	for _, c := range cases {
		p := tfs.Position(c.Pos)
		line := lineAt(data, p.Line)
		if p.Column < 1 || p.Column > len(line) || !strings.HasPrefix(line[p.Column-1:], "<testcase") {
			t.Errorf("case %q: %s is not at a <testcase tag: %q", c.Name, p, line)
		}
	}
}

func python(t *testing.T) string {
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		path, err := exec.LookPath(p)
		if err != nil {
			continue
		}
		if exec.Command(path, "-m", "pytest", "--version").Run() == nil {
			return path
		}
	}
	missingRunner(t, "pytest is not available (install it: apt-get install -y python3-pytest)")
	return ""
}

func TestPytestJUnit(t *testing.T) {
	t.Parallel() // waits on the runner, a process of its own
	py := python(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"tests/test_leaf.py": `import pytest

@pytest.fixture
def broken():
    raise RuntimeError("fixture exploded")

def test_clause_a():
    assert 1 + 1 == 2

def test_clause_b():
    assert 1 + 1 == 3, "arithmetic"

def test_clause_err(broken):
    pass

@pytest.mark.skip(reason="not today")
def test_clause_skip():
    pass

@pytest.mark.xfail(reason="known bug")
def test_clause_xfail():
    assert False

def test_prop(record_property):
    record_property("seg.test", "TS-PY-1, TS-PY-2")

class TestClass:
    def test_m(self):
        pass

@pytest.mark.parametrize("n", [1, 2])
def test_param(n):
    assert n == 1
`,
	})
	cmd := exec.Command(py, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-W", "ignore::pytest.PytestWarning",
		"--junitxml=build/pytest.xml", "tests")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	out, _ := cmd.CombinedOutput() // it fails: the run has failures
	data, err := os.ReadFile(filepath.Join(dir, "build", "pytest.xml"))
	if err != nil {
		t.Fatalf("pytest wrote no JUnit file: %v\n%s", err, out)
	}
	cases, diags := ReadCases(src("build/pytest.xml", data))
	if len(diags) != 0 {
		t.Errorf("diagnostics: %v", diags)
	}
	const m = "tests.test_leaf."
	want := map[string][]string{
		m + "test_clause_a":     {Passed},
		m + "test_clause_b":     {Failed},
		m + "test_clause_err":   {Error},
		m + "test_clause_skip":  {Skipped},
		m + "test_clause_xfail": {Skipped},
		m + "test_prop":         {Passed},
		m + "TestClass.test_m":  {Passed},
		m + "test_param[1]":     {Passed},
		m + "test_param[2]":     {Failed},
	}
	if diff := cmp.Diff(want, byName(cases)); diff != "" {
		t.Errorf("cases (-want +got):\n%s", diff)
	}
	checkTestcaseLines(t, data, cases)

	files := []*parser.File{{Path: "docs/t.rst", Nodes: []parser.Node{
		testNode("docs/t.rst", "TS-CLAUSES", 1, [2]string{"cases", "tests/test_leaf.py::test_clause_*"}),
		testNode("docs/t.rst", "TS-CLASS", 5, [2]string{"cases", "tests/test_leaf.py::TestClass::test_m"}),
		testNode("docs/t.rst", "TS-PARAM", 9, [2]string{"cases", "tests/test_leaf.py::test_param[2]"}),
		testNode("docs/t.rst", "TS-DOTTED", 13, [2]string{"cases", "tests.test_leaf.test_clause_a"}),
	}}}
	outs, _, diags := Outcomes(files, []Source{src("build/pytest.xml", data)})
	if len(diags) != 1 || diags[0].Code != CodeUnwitnessedResults {
		t.Errorf("diagnostics: %v", diags)
	}
	got := map[string]string{}
	for _, o := range outs {
		got[strings.TrimPrefix(o.Title, m)] = o.Option("confirms").Value + " " + o.Option("result").Value
	}
	wantOuts := map[string]string{
		"test_clause_a":     "TS-CLAUSES, TS-DOTTED passed",
		"test_clause_b":     "TS-CLAUSES failed",
		"test_clause_err":   "TS-CLAUSES error",
		"test_clause_skip":  "TS-CLAUSES skipped",
		"test_clause_xfail": "TS-CLAUSES skipped",
		"TestClass.test_m":  "TS-CLASS passed",
		"test_param[2]":     "TS-PARAM failed",
		"test_prop":         "TS-PY-1, TS-PY-2 passed",
	}
	if diff := cmp.Diff(wantOuts, got); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
}

// demoModule is the module path of the Go module goModule writes.
const demoModule = "example.com/segdemo/"

// demoResults is what any runner reports for the demo module's tests that
// all runners agree on, plus the runner-specific cases given.
func demoResults(extra map[string][]string) map[string][]string {
	m := demoModule
	want := map[string][]string{
		m + "leaf.TestPass":         {Passed},
		m + "leaf.TestFail":         {Failed},
		m + "leaf.TestSkip":         {Skipped},
		m + "leaf.TestSub":          {Failed},
		m + "leaf.TestSub/a":        {Passed},
		m + "leaf.TestSub/b":        {Failed},
		m + "leaf.TestSub/s":        {Skipped},
		m + "leaf.TestAttr":         {Passed},
		m + "crash.TestBeforeCrash": {Passed},
	}
	for k, v := range extra {
		want[k] = v
	}
	return want
}

// go test -json ends a benchmark that passed with no "pass" event, only
// its result line: such a benchmark passed. One that fails or is skipped
// has its event; one that panics, or whose sub-benchmark panics, is an
// error.
func TestGoTestJSONBenchmarks(t *testing.T) {
	t.Parallel() // waits on the runner, a process of its own
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/segbench\n\ngo 1.25\n",
		"ok/ok_test.go": `package ok

import "testing"

func BenchmarkPass(b *testing.B) { for b.Loop() {} }
func BenchmarkSubs(b *testing.B) {
	b.Run("a", func(b *testing.B) { for b.Loop() {} })
	b.Run("b-2", func(b *testing.B) { for b.Loop() {} })
}
func BenchmarkFail(b *testing.B) { b.Fatal("too slow") }
func BenchmarkSkip(b *testing.B) { b.Skip("no data") }
`,
		"boom/boom_test.go": `package boom

import "testing"

func BenchmarkBefore(b *testing.B) { for b.Loop() {} }
func BenchmarkParent(b *testing.B) {
	b.Run("fine", func(b *testing.B) { for b.Loop() {} })
	b.Run("boom", func(b *testing.B) { panic("boom") })
}
`,
	})
	cmd := exec.Command(goTool(t), "test", "-json", "-count=1", "-run", "^$", "-bench", ".", "-benchtime", "1x", "./...")
	cmd.Dir, cmd.Env = dir, goEnv()
	data, _ := cmd.Output()
	if len(data) == 0 {
		t.Fatal("go test -json wrote nothing")
	}
	cases, diags := ReadCases(src("bench.json", data))
	if len(diags) != 0 {
		t.Errorf("diagnostics: %v", diags)
	}
	const m = "example.com/segbench/"
	want := map[string][]string{
		m + "ok.BenchmarkPass":          {Passed},
		m + "ok.BenchmarkSubs":          {Passed},
		m + "ok.BenchmarkSubs/a":        {Passed},
		m + "ok.BenchmarkSubs/b-2":      {Passed},
		m + "ok.BenchmarkFail":          {Failed},
		m + "ok.BenchmarkSkip":          {Skipped},
		m + "boom.BenchmarkBefore":      {Passed},
		m + "boom.BenchmarkParent":      {Error},
		m + "boom.BenchmarkParent/fine": {Passed},
		m + "boom.BenchmarkParent/boom": {Error},
	}
	if diff := cmp.Diff(want, byName(cases)); diff != "" {
		t.Errorf("cases (-want +got):\n%s\n%s", diff, data)
	}
}

// flakyModule writes a module whose TestFlaky fails on its first run and
// passes after (it counts its runs in a file), whose TestBroken fails on
// every run, and whose TestSteady passes.
func flakyModule(t *testing.T) string {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/segflaky\n\ngo 1.25\n",
		"f/f_test.go": `package f

import (
	"os"
	"testing"
)

func TestFlaky(t *testing.T) {
	n, _ := os.ReadFile(os.Getenv("SEG_FLAKY_COUNT"))
	os.WriteFile(os.Getenv("SEG_FLAKY_COUNT"), append(n, 'x'), 0o644)
	if len(n) == 0 {
		t.Fatal("first run fails")
	}
}
func TestBroken(t *testing.T) { t.Fatal("always") }
func TestSteady(t *testing.T) {}
`,
	})
	return dir
}

// gotestsum --rerun-fails runs a failed test again: its go test -json
// record and its JUnit file hold every run, each run an outcome of its
// own with "#k" from the second on; under flaky = "passed" the earlier
// runs of a test whose last run passed are marked rerun-of.
func TestGotestsumRerunFails(t *testing.T) {
	t.Parallel() // waits on the runner, a process of its own
	dir := flakyModule(t)
	args := append(gotestsum(t), "--format", "standard-quiet", "--rerun-fails=2", "--packages", "./...",
		"--jsonfile", "run.json", "--junitfile", "junit.xml", "--", "-count=1")
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(goEnv(), "GOPROXY=", "SEG_FLAKY_COUNT="+filepath.Join(dir, "count"))
	out, _ := cmd.CombinedOutput() // it fails: TestBroken fails on every run
	const m = "example.com/segflaky/f."
	for _, file := range []string{"run.json", "junit.xml"} {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, file))
			if err != nil {
				t.Fatalf("gotestsum wrote no %s: %v\n%s", file, err, out)
			}
			cases, diags := ReadCases(src("build/"+file, data))
			if len(diags) != 0 {
				t.Errorf("diagnostics: %v", diags)
			}
			want := map[string][]string{
				m + "TestFlaky":  {Failed, Passed},
				m + "TestBroken": {Failed, Failed, Failed},
				m + "TestSteady": {Passed},
			}
			if diff := cmp.Diff(want, byName(cases)); diff != "" {
				t.Fatalf("cases (-want +got):\n%s", diff)
			}
			files := []*parser.File{{Path: "docs/t.rst", Nodes: []parser.Node{
				testNode("docs/t.rst", "TS-F", 1, [2]string{"cases", "*.TestFlaky, *.TestBroken, *.TestSteady"}),
				{Kind: parser.Implementation, ID: "IMPL"},
			}}}
			s := withWitnesses(src("build/"+file, data), "IMPL")
			s.Flaky = FlakyPassed
			outs, _, _ := Outcomes(files, []Source{s})
			got := map[string]string{}
			for _, o := range outs {
				v := o.Option("result").Value
				if r := o.Option(OptionRerunOf); r != nil {
					v += " rerun-of " + r.Value
				}
				got[strings.TrimPrefix(o.ID, "build/"+file+"::"+m)] = v
			}
			wantOuts := map[string]string{
				"TestFlaky":    "failed rerun-of build/" + file + "::" + m + "TestFlaky#2",
				"TestFlaky#2":  "passed",
				"TestBroken":   "failed",
				"TestBroken#2": "failed",
				"TestBroken#3": "failed",
				"TestSteady":   "passed",
			}
			if diff := cmp.Diff(wantOuts, got); diff != "" {
				t.Errorf("outcomes (-want +got):\n%s", diff)
			}
		})
	}
}

// pytest-rerunfailures reruns a failed test, but pytest's JUnit writer
// records only what the plugin reports as the test's result: the version
// Debian ships writes the last run alone, so the file says the flaky test
// passed and nothing of the runs before it (docs/results.md, "Reruns").
// seg reads what the file says, one outcome per <testcase>.
func TestPytestRerunfailures(t *testing.T) {
	t.Parallel() // waits on the runner, a process of its own
	py := python(t)
	if exec.Command(py, "-c", "import pytest_rerunfailures").Run() != nil {
		missingRunner(t, "pytest-rerunfailures is not available (install it: apt-get install -y python3-pytest-rerunfailures)")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"tests/test_retry.py": `import os

COUNT = os.environ["SEG_FLAKY_COUNT"]

def test_flaky():
    n = open(COUNT).read() if os.path.exists(COUNT) else ""
    open(COUNT, "w").write(n + "x")
    assert n, "first run fails"

def test_broken():
    assert False, "always"
`,
	})
	cmd := exec.Command(py, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--reruns", "2",
		"--junitxml=build/pytest.xml", "tests")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "SEG_FLAKY_COUNT="+filepath.Join(dir, "count"))
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "rerun") {
		t.Fatalf("pytest did not rerun:\n%s", out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "build", "pytest.xml"))
	if err != nil {
		t.Fatalf("pytest wrote no JUnit file: %v\n%s", err, out)
	}
	cases, diags := ReadCases(src("build/pytest.xml", data))
	if len(diags) != 0 {
		t.Errorf("diagnostics: %v", diags)
	}
	got := byName(cases)
	// What the file holds: the last run of each test, or (newer plugin
	// versions) one <testcase> per run. Either way the last run of each
	// name is its final result, and a test that failed every time fails.
	last := func(name string) string {
		rs := got["tests.test_retry."+name]
		if len(rs) == 0 {
			return ""
		}
		return rs[len(rs)-1]
	}
	if last("test_flaky") != Passed || last("test_broken") != Failed {
		t.Errorf("cases %v: want test_flaky's last run passed and test_broken's failed\n%s", got, data)
	}
}
