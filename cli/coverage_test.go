package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// coverageTree has three requirements: R-1 (sreq, leaf) implemented,
// verified and satisfied; R-2 (sreq, leaf) verified only by a suspect
// edge; S-1 (sys) refined by R-1, with no edge of its own.
var coverageTree = map[string]string{
	"docs/reqs.rst": ".. sys:: Top\n   :id: S-1\n\n" +
		".. sreq:: One\n   :id: R-1\n   :refines: S-1\n\n" +
		".. sreq:: Two\n   :id: R-2\n\n" +
		".. test:: T1\n   :id: T-1\n   :verifies: R-1\n\n" +
		".. test:: T2\n   :id: T-2\n   :verifies: R-2 (suspect)\n\n" +
		".. impl:: I1\n   :id: I-1\n   :implements: R-1\n\n" +
		".. outcome:: O1\n   :id: O-1\n   :confirms: T-1\n   :witnesses: I-1\n   :result: passed\n",
}

// --min-coverage on check and matrix: exit 1 exactly when a threshold is
// missed (whatever --fail-on leaves out), with which one and by how much; exit
// 2 for a list that cannot be read.
func TestMinCoverage(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, coverageTree, []string{"docs/reqs.rst"})
	for _, c := range []struct {
		args   []string
		code   int
		stdout string // a line the report has
		stderr string
	}{
		{[]string{"check", "--fail-on", "errors", "--min-coverage", "satisfied=66"}, 0, "", ""},
		{[]string{"check", "--fail-on", "errors", "--min-coverage", "66"}, 0, "", ""},
		{[]string{"check", "--fail-on", "errors", "--min-coverage", "satisfied=67"}, 1,
			"coverage below --min-coverage satisfied=67: 2 of 3 requirements satisfied (66.6%), 0.4 points below 67%", ""},
		{[]string{"check", "--fail-on", "errors", "--min-coverage", "sreq:verified=100"}, 1,
			"coverage below --min-coverage sreq:verified=100: 1 of 2 leaves verified (50.0%), 50.0 points below 100%", ""},
		// A suspect edge is a test link as S-CORE counts them, not a
		// verified leaf.
		{[]string{"check", "--fail-on", "errors", "--min-coverage", "sreq:test=100,sreq:fully-linked=50,tests-linked=100,implemented=50"}, 0, "", ""},
		{[]string{"check", "--fail-on", "errors", "--min-coverage", "code=50"}, 1,
			"coverage below --min-coverage code=50: 1 of 3 requirements with an implements edge (33.3%), 16.7 points below 50%", ""},
		{[]string{"check", "--fail-on", "errors", "--min-coverage", "sys:tests-linked=1"}, 1,
			"coverage below --min-coverage sys:tests-linked=1: 0 of 2 test specifications linked to requirements (0.0%), 1.0 points below 1%", ""},
		{[]string{"check", "--fail-on", "errors", "--min-coverage", "swreq:code=1"}, 1,
			`coverage below --min-coverage swreq:code=1: no requirement of type "swreq" is counted, so its code cannot reach 1%`, ""},
		{[]string{"check", "--min-coverage", "verifed=1"}, 2, "",
			"seg check: --min-coverage: \"verifed=1\": unknown measure \"verifed\" (did you mean \"verified\"?)\n"},
		{[]string{"check", "--min-coverage", "101"}, 2, "", "seg check: --min-coverage must be a percentage from 0 to 100, not 101\n"},
		{[]string{"matrix", "--min-coverage", "sreq:verified=50"}, 0, "", ""},
		{[]string{"matrix", "--min-coverage", "sreq:verified=51,66"}, 1, "",
			"seg matrix: coverage below --min-coverage sreq:verified=51: 1 of 2 leaves verified (50.0%), 1.0 points below 51%\n"},
		{[]string{"matrix", "--min-coverage", "70"}, 1, "",
			"seg matrix: coverage 66.6% (2 of 3 requirements satisfied) is below --min-coverage 70%\n"},
	} {
		args := append(append([]string{}, c.args...), "--at", "2026-11-29", "--no-cache", "--color", "never", dir)
		code, stdout, stderr := run(args...)
		if code != c.code {
			t.Errorf("seg %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(c.args, " "), code, c.code, stdout, stderr)
		}
		if c.stdout != "" && !strings.Contains(stdout, c.stdout+"\n") {
			t.Errorf("seg %s: stdout lacks %q:\n%s", strings.Join(c.args, " "), c.stdout, stdout)
		}
		if stderr != c.stderr {
			t.Errorf("seg %s: stderr %q, want %q", strings.Join(c.args, " "), stderr, c.stderr)
		}
	}
	// seg check --format json carries the record and what is below.
	_, stdout, _ := run("check", "--format", "json", "--fail-on", "errors", "--min-coverage", "sreq:verified=100", "--at", "2026-11-29", "--no-cache", dir)
	var doc struct {
		Coverage struct {
			All struct {
				Requirements, Leaves int
				Verified, Code, Test struct{ Count, Total int }
			}
			ByType []struct {
				Type     string
				Verified struct{ Count, Total int }
			} `json:"by_type"`
			Tests  int
			Broken int `json:"broken_references"`
			Below  []struct {
				Threshold, Measure, Message string
				Count, Total                int
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	cv := doc.Coverage
	if cv.All.Requirements != 3 || cv.All.Leaves != 2 || cv.All.Verified.Count != 1 || cv.All.Code.Count != 1 || cv.All.Test.Count != 2 || cv.Tests != 2 {
		t.Errorf("coverage.all %+v, tests %d", cv.All, cv.Tests)
	}
	if len(cv.ByType) != 2 || cv.ByType[0].Type != "sreq" || cv.ByType[1].Type != "sys" {
		t.Errorf("coverage.by_type %+v", cv.ByType)
	}
	if len(cv.Below) != 1 || cv.Below[0].Threshold != "sreq:verified=100" || cv.Below[0].Count != 1 || cv.Below[0].Total != 2 {
		t.Errorf("coverage.below %+v", cv.Below)
	}
}
