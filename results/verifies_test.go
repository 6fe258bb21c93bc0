package results

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seg-trace/seg/parser"
)

// summary is what a test checks of the nodes Outcomes made: each test
// specification as "ID -> REQ, REQ(partial)", each outcome as
// "ID result confirms".
func summary(nodes []parser.Node) []string {
	var out []string
	for _, n := range nodes {
		switch n.Kind {
		case parser.Test:
			var ls []string
			for _, l := range n.Option("verifies").Links {
				if l.Partial {
					ls = append(ls, l.ID+"(partial)")
				} else {
					ls = append(ls, l.ID)
				}
			}
			out = append(out, fmt.Sprintf("test %s -> %s @%d", n.ID, strings.Join(ls, ", "), tfs.Position(n.Pos).Line))
		case parser.Outcome:
			out = append(out, fmt.Sprintf("outcome %s %s %s", n.ID, n.Option("result").Value, n.Option("confirms").Value))
		}
	}
	return out
}

// A case whose properties name requirements is a test specification of
// its own, at the case, and its runs are its outcomes; the test
// specifications come after every outcome.
func TestVerifyProperties(t *testing.T) {
	data := []byte(`<?xml version="1.0"?>
<testsuites>
  <testsuite name="s" timestamp="2026-11-30T10:00:00">
    <testcase classname="t" name="full"><properties><property name="FullyVerifies" value="REQ-B, REQ-A"/></properties></testcase>
    <testcase classname="t" name="part"><properties><property name="PartiallyVerifies" value="REQ-A"/><property name="FullyVerifies" value="REQ-C"/></properties><error message="boom"/></testcase>
    <testcase classname="t" name="both"><properties><property name="PartiallyVerifies" value="REQ-A"/><property name="verifies" value="REQ-A"/></properties></testcase>
    <testcase classname="t" name="lobster"><properties><property name="lobster-trace" value="REQ-L"/><property name="seg.verifies" value="REQ-S;REQ-T"/></properties><failure/></testcase>
    <testcase classname="t" name="spec"><properties><property name="seg.verifies" value="REQ-A"/><property name="seg.test" value="TS-1"/></properties></testcase>
    <testcase classname="t" name="plain"/>
    <testcase classname="t" name="other"><properties><property name="owner" value="REQ-X"/></properties></testcase>
    <testcase classname="t" name="full"><properties><property name="FullyVerifies" value="REQ-A"/></properties><skipped/></testcase>
  </testsuite>
</testsuites>
`)
	outs, unmatched, diags := Outcomes(nil, []Source{withWitnesses(src("build/props.xml", data), "IMPL")})
	if len(diags) != 1 || diags[0].Code != CodeInvalidWitness {
		t.Errorf("diagnostics: %v", diags)
	}
	const p = "build/props.xml::t."
	want := []string{
		"outcome " + p + "full passed " + p + "full#test",
		"outcome " + p + "part error " + p + "part#test",
		"outcome " + p + "both passed " + p + "both#test",
		"outcome " + p + "lobster failed " + p + "lobster#test",
		"outcome " + p + "spec passed TS-1, " + p + "spec#test",
		"outcome " + p + "full#2 skipped " + p + "full#test",
		"test " + p + "full#test -> REQ-A, REQ-B @4",
		"test " + p + "part#test -> REQ-A(partial), REQ-C @5",
		"test " + p + "both#test -> REQ-A @6",
		"test " + p + "lobster#test -> REQ-L, REQ-S, REQ-T @7",
		"test " + p + "spec#test -> REQ-A @8",
	}
	if diff := cmp.Diff(want, summary(outs)); diff != "" {
		t.Errorf("nodes (-want +got):\n%s", diff)
	}
	var names []string
	for _, u := range unmatched {
		names = append(names, u.Name)
	}
	if diff := cmp.Diff([]string{"t.plain", "t.other"}, names); diff != "" {
		t.Errorf("unmatched (-want +got):\n%s", diff)
	}
	for _, n := range outs {
		if !n.FromResults || n.Revision == 0 {
			t.Errorf("%s: FromResults %v, revision %d", n.ID, n.FromResults, n.Revision)
		}
	}

	// Properties configured: only those count, and none at all is none.
	s := src("build/props2.xml", data)
	s.Verify = []VerifyProperty{{Name: "owner", Partial: true}}
	outs, _, _ = Outcomes(nil, []Source{s})
	want = []string{"outcome build/props2.xml::t.spec passed TS-1",
		"outcome build/props2.xml::t.other passed build/props2.xml::t.other#test",
		"test build/props2.xml::t.other#test -> REQ-X(partial) @10"}
	if diff := cmp.Diff(want, summary(outs)); diff != "" {
		t.Errorf("configured (-want +got):\n%s", diff)
	}
	s = src("build/props3.xml", data)
	s.Verify = []VerifyProperty{}
	outs, _, _ = Outcomes(nil, []Source{s})
	if diff := cmp.Diff([]string{"outcome build/props3.xml::t.spec passed TS-1"}, summary(outs)); diff != "" {
		t.Errorf("none (-want +got):\n%s", diff)
	}
}

// GoogleTest: a test it did not run (DISABLED_) is status="notrun", one
// GTEST_SKIP ended is result="skipped"; neither is a pass.
func TestGTestNotRun(t *testing.T) {
	t.Parallel() // waits on the runner, a process of its own
	data := []byte(`<testsuites><testsuite name="B">
<testcase name="Off" status="notrun" result="suppressed" classname="B" />
<testcase name="Skip" status="run" result="skipped" classname="B"></testcase>
<testcase name="Ran" status="run" result="completed" classname="B" />
</testsuite></testsuites>`)
	cases, diags := ReadCases(src("build/gtest-notrun.xml", data))
	if len(diags) != 0 {
		t.Fatal(diags)
	}
	if diff := cmp.Diff(map[string][]string{"B.Off": {Skipped}, "B.Skip": {Skipped}, "B.Ran": {Passed}}, byName(cases)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// gtestRun compiles and runs a GoogleTest program, and returns its JUnit
// file; without g++ and libgtest-dev the test is skipped (failed under
// SEG_REQUIRE_RUNNERS=1).
func gtestRun(t *testing.T, dir, code string) []byte {
	gxx, err := exec.LookPath("g++")
	if err != nil {
		missingRunner(t, "g++ is not available (install it: apt-get install -y g++ libgtest-dev)")
	}
	if _, err := os.Stat("/usr/include/gtest/gtest.h"); err != nil {
		missingRunner(t, "GoogleTest is not available (install it: apt-get install -y libgtest-dev)")
	}
	writeFiles(t, dir, map[string]string{"brake_test.cc": code})
	bin := filepath.Join(dir, "brake_test")
	cmd := exec.Command(gxx, "-std=c++17", "brake_test.cc", "-o", bin, "-lgtest", "-lgtest_main", "-pthread")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		missingRunner(t, fmt.Sprintf("cannot build a GoogleTest program (install libgtest-dev): %v\n%s", err, out))
	}
	xml := filepath.Join(dir, "build", "gtest.xml")
	cmd = exec.Command(bin, "--gtest_output=xml:"+xml)
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput() // it fails: the run has failures
	data, err := os.ReadFile(xml)
	if err != nil {
		t.Fatalf("the GoogleTest program wrote no JUnit file: %v\n%s", err, out)
	}
	return data
}

func TestGTestRecordProperty(t *testing.T) {
	t.Parallel() // waits on the runner, a process of its own
	data := gtestRun(t, t.TempDir(), `#include <gtest/gtest.h>
TEST(Brake, Holds) { RecordProperty("FullyVerifies", "REQ-A, REQ-B"); EXPECT_EQ(1, 1); }
TEST(Brake, Partial) { RecordProperty("PartiallyVerifies", "REQ-B"); EXPECT_EQ(1, 2) << "wrong"; }
TEST(Brake, Skip) { RecordProperty("FullyVerifies", "REQ-A"); GTEST_SKIP() << "no rig"; }
TEST(Brake, DISABLED_Off) { RecordProperty("FullyVerifies", "REQ-A"); }
TEST(Brake, Lobster) { RecordProperty("lobster-trace", "REQ-L"); }
TEST(Brake, Plain) {}
`)
	outs, unmatched, diags := Outcomes(nil, []Source{withWitnesses(src("build/gtest.xml", data))})
	if len(diags) != 1 || diags[0].Code != CodeUnwitnessedResults {
		t.Errorf("diagnostics: %v", diags)
	}
	const p = "build/gtest.xml::Brake."
	got := summary(outs)
	for i := range got { // lines depend on the writer's layout
		got[i], _, _ = strings.Cut(got[i], " @")
	}
	want := []string{
		"outcome " + p + "Holds passed " + p + "Holds#test",
		"outcome " + p + "Partial failed " + p + "Partial#test",
		"outcome " + p + "Skip skipped " + p + "Skip#test",
		"outcome " + p + "Lobster passed " + p + "Lobster#test",
		"test " + p + "Holds#test -> REQ-A, REQ-B",
		"test " + p + "Partial#test -> REQ-B(partial)",
		"test " + p + "Skip#test -> REQ-A",
		"test " + p + "Lobster#test -> REQ-L",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("nodes (-want +got):\n%s", diff)
	}
	var names []string
	for _, u := range unmatched {
		names = append(names, u.Name+" "+u.Result)
	}
	if diff := cmp.Diff([]string{"Brake.DISABLED_Off skipped", "Brake.Plain passed"}, names); diff != "" {
		t.Errorf("unmatched (-want +got):\n%s", diff)
	}
	cases, _ := ReadCases(src("build/gtest-cases.xml", data))
	checkTestcaseLines(t, data, cases)
}

func TestPytestRecordProperty(t *testing.T) {
	t.Parallel() // waits on the runner, a process of its own
	py := python(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"tests/test_brake.py": `import pytest

def test_holds(record_property):
    record_property("FullyVerifies", "REQ-A, REQ-B")

def test_partial(record_property):
    record_property("PartiallyVerifies", "REQ-B")
    assert 1 + 1 == 3, "arithmetic"

@pytest.fixture
def rig():
    yield
    raise RuntimeError("rig left dirty")

def test_error(record_property, rig):
    record_property("FullyVerifies", "REQ-C")

def test_skip(record_property):
    record_property("verifies", "REQ-A")
    pytest.skip("not today")

def test_plain():
    pass
`,
	})
	cmd := exec.Command(py, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-W", "ignore::pytest.PytestWarning",
		"-o", "junit_family=xunit1", "--junitxml=build/pytest.xml", "tests")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	out, _ := cmd.CombinedOutput() // it fails: the run has failures
	data, err := os.ReadFile(filepath.Join(dir, "build", "pytest.xml"))
	if err != nil {
		t.Fatalf("pytest wrote no JUnit file: %v\n%s", err, out)
	}
	outs, unmatched, _ := Outcomes(nil, []Source{src("build/pytest-props.xml", data)})
	const p = "build/pytest-props.xml::tests.test_brake."
	got := summary(outs)
	for i := range got {
		got[i], _, _ = strings.Cut(got[i], " @")
	}
	want := []string{
		"outcome " + p + "test_holds passed " + p + "test_holds#test",
		"outcome " + p + "test_partial failed " + p + "test_partial#test",
		// A fixture that raised in its teardown is pytest's <error>:
		// a failure, not a pass (S-CORE's own reader calls it passed).
		"outcome " + p + "test_error error " + p + "test_error#test",
		"outcome " + p + "test_skip skipped " + p + "test_skip#test",
		"test " + p + "test_holds#test -> REQ-A, REQ-B",
		"test " + p + "test_partial#test -> REQ-B(partial)",
		"test " + p + "test_error#test -> REQ-C",
		"test " + p + "test_skip#test -> REQ-A",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("nodes (-want +got):\n%s\n%s", diff, data)
	}
	if len(unmatched) != 1 || unmatched[0].Name != "tests.test_brake.test_plain" {
		t.Errorf("unmatched: %v", unmatched)
	}
}

// A Go test names requirements with t.Attr: go test -json carries the
// attribute, and so must the outcome made from it.
func TestGoTestAttrVerifies(t *testing.T) {
	t.Parallel() // waits on the runner, a process of its own
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/segverify\n\ngo 1.25\n",
		"brake/brake_test.go": `package brake

import "testing"

func TestHolds(t *testing.T)   { t.Attr("FullyVerifies", "REQ-A") }
func TestPartial(t *testing.T) { t.Attr("PartiallyVerifies", "REQ-B"); t.Fatal("wrong") }
func TestPlain(t *testing.T)   {}
`,
	})
	data := goTestJSON(t, dir)
	outs, _, _ := Outcomes(nil, []Source{src("build/go-verify.json", data)})
	const p = "build/go-verify.json::example.com/segverify/brake."
	got := summary(outs)
	for i := range got {
		got[i], _, _ = strings.Cut(got[i], " @")
	}
	want := []string{
		"outcome " + p + "TestHolds passed " + p + "TestHolds#test",
		"outcome " + p + "TestPartial failed " + p + "TestPartial#test",
		"test " + p + "TestHolds#test -> REQ-A",
		"test " + p + "TestPartial#test -> REQ-B(partial)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("go test -json (-want +got):\n%s", diff)
	}

	// gotestsum's JUnit of the same run.
	stream := filepath.Join(dir, "go-test.json")
	if err := os.WriteFile(stream, data, 0o644); err != nil {
		t.Fatal(err)
	}
	junit := filepath.Join(dir, "junit.xml")
	args := append(gotestsum(t), "--junitfile", junit, "--format", "standard-quiet", "--raw-command", "--", "cat", stream)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Env = dir, append(goEnv(), "GOPROXY=")
	out, _ := cmd.CombinedOutput()
	jdata, err := os.ReadFile(junit)
	if err != nil {
		t.Fatalf("gotestsum wrote no JUnit file: %v\n%s", err, out)
	}
	outs, _, _ = Outcomes(nil, []Source{src("build/gotestsum-verify.xml", jdata)})
	const q = "build/gotestsum-verify.xml::example.com/segverify/brake."
	got = summary(outs)
	for i := range got {
		got[i], _, _ = strings.Cut(got[i], " @")
	}
	slices.Sort(got) // the order of gotestsum's cases is its own
	want = []string{
		"outcome " + q + "TestHolds passed " + q + "TestHolds#test",
		"outcome " + q + "TestPartial failed " + q + "TestPartial#test",
		"test " + q + "TestHolds#test -> REQ-A",
		"test " + q + "TestPartial#test -> REQ-B(partial)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("gotestsum (-want +got):\n%s\n%s", diff, jdata)
	}
}
