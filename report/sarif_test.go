package report_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/cli"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/report"
	"github.com/seg-trace/seg/source"
)

// sarifSchema compiles the official SARIF 2.1.0 schema (a copy of
// shared/data/sarif-schema-2.1.0.json), with format assertions on, so a
// bad uri fails too.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "sarif", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validate(t *testing.T, sch *jsonschema.Schema, out []byte) *sarifDoc {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("SARIF does not validate against the 2.1.0 schema: %v", err)
	}
	var doc sarifDoc
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	checkLog(t, &doc)
	return &doc
}

// sarifDoc is what the tests read back.
type sarifDoc struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name, InformationURI, Version string
				Rules                         []struct {
					ID                   string
					HelpURI              string
					ShortDescription     struct{ Text string }
					DefaultConfiguration struct{ Level string }
				}
			}
		}
		Invocations []struct {
			ExecutionSuccessful *bool
			ExitCode            int
			Notifications       []struct {
				Level          string
				Message        struct{ Text string }
				AssociatedRule struct {
					ID    string
					Index *int
				}
			} `json:"toolExecutionNotifications"`
		}
		OriginalURIBaseIDs map[string]any `json:"originalUriBaseIds"`
		ColumnKind         string
		Properties         struct {
			EvaluationDate string
		}
		Results []struct {
			RuleID           string
			RuleIndex        *int
			Level            string
			Message          struct{ Text string }
			Locations        []sarifLoc
			RelatedLocations []sarifLoc
		}
	}
}

type sarifLoc struct {
	ID               int
	PhysicalLocation *struct {
		ArtifactLocation struct {
			URI       string
			URIBaseID string `json:"uriBaseId"`
		}
		Region *struct{ StartLine, StartColumn, EndLine, EndColumn int }
	}
	Message *struct{ Text string }
}

// checkLog checks what the schema cannot: one run, every ruleIndex names
// the rule of the same id, rule ids are unique and each has a help URI
// into docs/codes.md, locations are root-relative.
func checkLog(t *testing.T, doc *sarifDoc) {
	t.Helper()
	if doc.Version != "2.1.0" || doc.Schema == "" || len(doc.Runs) != 1 {
		t.Fatalf("want one run of version 2.1.0 with $schema; got version %q, %d runs", doc.Version, len(doc.Runs))
	}
	run := doc.Runs[0]
	d := run.Tool.Driver
	if d.Name != "seg" || d.InformationURI == "" {
		t.Errorf("driver = %q %q", d.Name, d.InformationURI)
	}
	if len(run.Invocations) != 1 || run.Invocations[0].ExecutionSuccessful == nil || !*run.Invocations[0].ExecutionSuccessful {
		t.Errorf("invocations[0].executionSuccessful must be true: %+v", run.Invocations)
	}
	if run.ColumnKind != "unicodeCodePoints" {
		t.Errorf("columnKind = %q", run.ColumnKind)
	}
	if _, ok := run.OriginalURIBaseIDs[report.SourceRoot]; !ok {
		t.Errorf("originalUriBaseIds has no %s", report.SourceRoot)
	}
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\d$`).MatchString(run.Properties.EvaluationDate) {
		t.Errorf("run properties state no evaluation date: %q", run.Properties.EvaluationDate)
	}
	seen := map[string]bool{}
	for i, r := range d.Rules {
		if seen[r.ID] {
			t.Errorf("rule %q twice", r.ID)
		}
		seen[r.ID] = true
		if r.HelpURI != diag.DocURL+r.ID || r.ShortDescription.Text == "" {
			t.Errorf("rule %d %q: helpUri %q, shortDescription %q", i, r.ID, r.HelpURI, r.ShortDescription.Text)
		}
	}
	for _, inv := range run.Invocations {
		for _, n := range inv.Notifications {
			r := n.AssociatedRule
			if r.Index == nil || *r.Index < 0 || *r.Index >= len(d.Rules) || d.Rules[*r.Index].ID != r.ID || n.Message.Text == "" {
				t.Errorf("notification %+v does not name its rule", n)
			}
		}
	}
	for _, res := range run.Results {
		if res.RuleIndex == nil || *res.RuleIndex < 0 || *res.RuleIndex >= len(d.Rules) || d.Rules[*res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %q has ruleIndex %v that does not name its rule", res.RuleID, res.RuleIndex)
		}
		if res.Message.Text == "" {
			t.Errorf("result %q has no message", res.RuleID)
		}
		// GitHub code scanning refuses the whole log otherwise.
		if len(res.Locations) == 0 || res.Locations[0].PhysicalLocation == nil || res.Locations[0].PhysicalLocation.ArtifactLocation.URI == "" {
			t.Errorf("result %q has no location in a file: %+v", res.RuleID, res.Locations)
		}
		for _, l := range append(append([]sarifLoc(nil), res.Locations...), res.RelatedLocations...) {
			if pl := l.PhysicalLocation; pl != nil {
				if pl.ArtifactLocation.URIBaseID != report.SourceRoot || strings.HasPrefix(pl.ArtifactLocation.URI, "/") {
					t.Errorf("result %q: location %+v is not relative to %s", res.RuleID, pl.ArtifactLocation, report.SourceRoot)
				}
			}
		}
	}
}

// seg runs the real command line and returns its output and exit code.
func seg(t *testing.T, args ...string) ([]byte, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Execute(args, &out, &errb)
	if code == 2 {
		t.Fatalf("seg %s: exit 2: %s", strings.Join(args, " "), errb.String())
	}
	return out.Bytes(), code
}

// untested are the codes no tree of the allcodes test can give:
// no-requirements needs a tree without requirements
// (TestSARIFNoRequirements).
var untested = map[string]bool{"file-too-large": true, "no-requirements": true}

// A tree without requirements gives no-requirements, a finding without a
// location, in a valid SARIF log, and exit 1.
func TestSARIFNoRequirements(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.rst"), []byte(".. foo:: Not a node\n   :id: FOO_1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := seg(t, "check", "--format", "sarif", "--at", "2026-11-29", root)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	doc := validate(t, sarifSchema(t), out)
	got := map[string]bool{}
	for _, n := range doc.Runs[0].Invocations[0].Notifications {
		got[n.AssociatedRule.ID] = true
	}
	for _, r := range doc.Runs[0].Results {
		got[r.RuleID] = true
	}
	for _, c := range []string{"no-requirements", "unknown-need-type", "unloaded-need-types"} {
		if !got[c] {
			t.Errorf("no %s in %s", c, out)
		}
	}
	if _, code := seg(t, "check", "--allow-empty", "--at", "2026-11-29", root); code != 0 {
		t.Errorf("--allow-empty: exit %d, want 0 (warnings only)", code)
	}
}

// Every example tree gives a valid SARIF log, the same bytes twice, and
// the exit code of the text format.
func TestSARIFExamplesValidate(t *testing.T) {
	sch := sarifSchema(t)
	dirs, err := filepath.Glob(filepath.Join("..", "examples", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no example trees: %v", err)
	}
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			out, code := seg(t, "check", "--format", "sarif", "--at", "2026-11-29", dir)
			doc := validate(t, sch, out)
			again, _ := seg(t, "check", "--format", "sarif", "--at", "2026-11-29", dir)
			if !bytes.Equal(out, again) {
				t.Error("two runs gave different bytes")
			}
			for _, format := range []string{"text", "json", "github"} {
				if _, c := seg(t, "check", "--format", format, "--at", "2026-11-29", dir); c != code {
					t.Errorf("--format %s exits %d, --format sarif %d", format, c, code)
				}
			}
			if got := doc.Runs[0].Invocations[0].ExitCode; got != code {
				t.Errorf("invocation exitCode %d, seg exited %d", got, code)
			}
		})
	}
}

// The invocation's exitCode is the process's under every --fail-on
// policy: both come from check.Check.Failed.
func TestSARIFExitCodeFollowsFailOn(t *testing.T) {
	sch := sarifSchema(t)
	trees := map[string]string{
		"unproven": ".. sreq:: New\n   :id: R-1\n",
		"failing": ".. sreq:: R\n   :id: R-1\n\n.. test:: T\n   :id: T-1\n   :verifies: R-1\n\n" +
			".. impl:: I\n   :id: I-1\n   :implements: R-1\n\n" +
			".. outcome:: O\n   :id: O-1\n   :confirms: T-1\n   :witnesses: I-1\n   :result: failed\n",
		"warning": ".. test:: Orphan\n   :id: T-1\n",
	}
	want := map[string]map[string]int{
		"unproven": {"errors,unsatisfied": 1, "errors,failing": 0, "unproven": 1, "warnings": 0},
		"failing":  {"errors,unsatisfied": 1, "errors,failing": 1, "unproven": 0, "warnings": 0},
		"warning":  {"errors,unsatisfied": 0, "errors,failing": 0, "unproven": 0, "warnings": 1},
	}
	for name, text := range trees {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "a.rst"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		for policy, code := range want[name] {
			out, got := seg(t, "check", "--format", "sarif", "--fail-on", policy, "--allow-empty", "--at", "2026-11-29", "--no-cache", dir)
			doc := validate(t, sch, out)
			if got != code || doc.Runs[0].Invocations[0].ExitCode != code {
				t.Errorf("%s, --fail-on %s: exit %d, invocation exitCode %d; want %d", name, policy, got, doc.Runs[0].Invocations[0].ExitCode, code)
			}
			// An unsatisfied requirement is an error exactly where it
			// fails the run, else a warning: annotations agree with the
			// exit code.
			if name != "warning" {
				wantLevel := "warning"
				if code == 1 {
					wantLevel = "error"
				}
				for _, r := range doc.Runs[0].Results {
					if strings.Contains(r.Message.Text, "R-1") && r.Level != wantLevel {
						t.Errorf("%s, --fail-on %s: the requirement's result is %s, want %s", name, policy, r.Level, wantLevel)
					}
				}
			}
		}
	}
}

// testdata/sarif/allcodes is a tree with every diagnostic code that a tree
// can produce (unreviewed-link comes from testdata/sarif/strict) (internal-error cannot: see TestSARIFEveryCodeSynthetic) and
// every blocking reason code, with odd file names (a comma, a percent
// sign, a space; a colon and a non-ASCII letter added at run time) and
// non-ASCII text. A dangling link adds unreadable-file; --results adds the
// results codes.
func TestSARIFAllCodesValidate(t *testing.T) {
	sch := sarifSchema(t)
	root := copyTree(t, filepath.Join("testdata", "sarif", "allcodes"))
	addRuntimeFiles(t, root)
	args := []string{"check", "--format", "sarif", "--at", "2026-11-29", "--witness", "IMPL-1",
		"--results", filepath.Join(root, "bad.xml"), "--results", filepath.Join(root, "none", "*.xml"), root}
	out, code := seg(t, args...)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	doc := validate(t, sch, out)
	got := map[string]bool{}
	for _, n := range doc.Runs[0].Invocations[0].Notifications {
		got[n.AssociatedRule.ID] = true
	}
	for _, res := range doc.Runs[0].Results {
		got[res.RuleID] = true
		for _, rl := range res.RelatedLocations {
			if rl.Message != nil {
				if m := regexp.MustCompile(`\[([a-z-]+)\]$`).FindStringSubmatch(rl.Message.Text); m != nil {
					got[m[1]] = true
				}
			}
		}
	}
	// Strict review ([review] require-pins) is a tree of its own.
	strict, _ := seg(t, "check", "--format", "sarif", "--at", "2026-11-29", filepath.Join("testdata", "sarif", "strict"))
	for _, res := range validate(t, sch, strict).Runs[0].Results {
		got[res.RuleID] = true
	}
	for _, c := range diag.Codes() {
		switch {
		case c.Editor:
		case !c.IsReason() && !got[c.Name] && c.Name != "internal-error" && !untested[c.Name]:
			t.Errorf("the allcodes tree gives no %s result or notification", c.Name)
		case c.IsReason() && c.Blocking && !got[c.Name]:
			t.Errorf("the allcodes tree gives no %s reason", c.Name)
		}
	}
	// Odd names are percent-encoded into valid URI references.
	var uris []string
	for _, res := range doc.Runs[0].Results {
		for _, l := range res.Locations {
			if l.PhysicalLocation != nil {
				uris = append(uris, l.PhysicalLocation.ArtifactLocation.URI)
			}
		}
	}
	for _, want := range []string{"docs/odd%2C%20name%20dir/100%25%20odd%2C%20file%20name.rst", "docs/co%3Alon%2C%20%C3%BC.rst"} {
		if !slices.Contains(uris, want) {
			t.Errorf("no location %q among %q", want, uris)
		}
	}
	// The same tree elsewhere gives the same bytes but for the absolute
	// paths seg itself puts in messages (a results glob that matched
	// nothing names the pattern as given).
	other := copyTree(t, filepath.Join("testdata", "sarif", "allcodes"))
	addRuntimeFiles(t, other)
	args = []string{"check", "--format", "sarif", "--at", "2026-11-29", "--witness", "IMPL-1",
		"--results", filepath.Join(other, "bad.xml"), "--results", filepath.Join(other, "none", "*.xml"), other}
	out2, _ := seg(t, args...)
	norm := func(b []byte, dir string) []byte {
		abs, _ := filepath.Abs(dir)
		return bytes.ReplaceAll(b, []byte(abs), []byte("ROOT"))
	}
	if !bytes.Equal(norm(out, root), norm(out2, other)) {
		t.Error("the same tree in another folder gives different SARIF")
	}
}

// Every code in the table, diagnostic or reason, gives a valid result, at
// every shape of position: none, a file without a line, a line without a
// column, a span over lines, and one within a line.
func TestSARIFEveryCodeSynthetic(t *testing.T) {
	sch := sarifSchema(t)
	src := map[string]string{
		"r.rst": ".. sreq:: Needs evidence\n   :id: REQ-ÄÖ\n",
	}
	fset := source.NewFileSet()
	rf := fset.Add("r.rst", len(src["r.rst"]), source.Docutils)
	file := parser.ParseFile(rf, []byte(src["r.rst"]), parser.DefaultConfig())
	rf.SetSource([]byte(src["r.rst"]), false)
	xml := fset.Add("../outside/a b.xml", 0, source.Newlines)
	g, gd := graph.Build(fset, []*parser.File{file}, nil, nil)
	at := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	res := evaluate.Evaluate(g, at)
	diags := append(diag.List{}, gd...)
	lc := func(line, col int) source.Pos { return rf.Pos(int(rf.Lines()[line-1]) + col - 1) }
	shapes := []source.Span{
		{},
		{Start: rf.Whole()},
		{Start: rf.Pos(int(rf.Lines()[0]))},
		{Start: lc(1, 4), End: lc(2, 3)},
		{Start: lc(2, 9), End: lc(2, 15)},
		{Start: xml.Mark(3, 1)},
	}
	for i, code := range diag.Codes() {
		if code.Editor {
			continue // seg check never reports them
		}
		if code.IsReason() {
			// A reason made a diagnostic, as no run makes: an error.
			code = &diag.Code{Name: code.Name, Severity: diag.Error, Summary: code.Summary}
		}
		sp := shapes[i%len(shapes)]
		diags = append(diags, diag.Diagnostic{Code: code, Message: "synthetic " + code.Name + " 100%\r\n: ,",
			Detail: "detail", Span: sp, Related: []diag.Related{{Span: shapes[(i+1)%len(shapes)], Message: "related"}}})
	}
	diags.Sort(fset)
	c := &check.Check{At: at, Files: fset, Graph: g, Result: res, Diagnostics: diags}
	var buf bytes.Buffer
	if err := report.WriteSARIF(&buf, c, "1.2.3"); err != nil {
		t.Fatal(err)
	}
	doc := validate(t, sch, buf.Bytes())
	if v := doc.Runs[0].Tool.Driver.Version; v != "1.2.3" {
		t.Errorf("driver version %q", v)
	}
	// Columns count code points: byte 15 of "   :id: REQ-ÄÖ" (the Ö) is code
	// point 14.
	for _, r := range doc.Runs[0].Results {
		for _, l := range r.Locations {
			if pl := l.PhysicalLocation; pl != nil && pl.Region != nil && pl.Region.StartLine == 2 && pl.Region.StartColumn == 9 {
				if pl.Region.EndColumn != 14 {
					t.Errorf("end column %d, want 14 (code points)", pl.Region.EndColumn)
				}
			}
		}
	}
	// Each diagnostic's detail is the second line of its message.
	synthetic := 0
	for _, r := range doc.Runs[0].Results {
		if strings.HasPrefix(r.Message.Text, "synthetic ") {
			synthetic++
			if !strings.Contains(r.Message.Text, "\ndetail") {
				t.Errorf("result %s: the message does not carry the detail: %q", r.RuleID, r.Message.Text)
			}
		}
	}
	if synthetic == 0 {
		t.Error("no result of a synthetic diagnostic")
	}
	// One unsatisfied requirement, as a result under its first reason's
	// rule, with every blocking reason as a related location.
	n := 0
	for _, r := range doc.Runs[0].Results {
		if strings.HasPrefix(r.Message.Text, `REQ-ÄÖ "Needs evidence" is unproven`) {
			n++
			if r.RuleID != "no-active-verifies" || r.Level != "error" || len(r.RelatedLocations) != 2 {
				t.Errorf("unsatisfied requirement result: %+v", r)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d results for the unsatisfied requirement, want 1", n)
	}
	// Rules: the whole code table but the editor's own codes, levels
	// from the severities.
	rules := doc.Runs[0].Tool.Driver.Rules
	codes := slices.DeleteFunc(diag.Codes(), func(c *diag.Code) bool { return c.Editor })
	if len(rules) != len(codes) {
		t.Errorf("%d rules for %d codes", len(rules), len(codes))
	}
	for i, c := range codes {
		want := c.Severity.String()
		if c.IsReason() {
			want = map[bool]string{true: "error", false: "note"}[c.Blocking]
		}
		if i < len(rules) && (rules[i].ID != c.Name || rules[i].DefaultConfiguration.Level != want) {
			t.Errorf("rule %d = %q %q, want %q %q", i, rules[i].ID, rules[i].DefaultConfiguration.Level, c.Name, want)
		}
	}
}

// Every rule's help URI lands on a heading of docs/codes.md.
func TestSARIFHelpAnchors(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "docs", "codes.md"))
	if err != nil {
		t.Skipf("docs/codes.md: %v", err)
	}
	headings := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			headings[strings.TrimSpace(strings.Trim(strings.TrimSpace(h), "`"))] = true
		}
	}
	for _, c := range diag.Codes() {
		if !headings[c.Name] {
			t.Errorf("docs/codes.md has no heading %q for the rule's helpUri %s%s", "## "+c.Name, diag.DocURL, c.Name)
		}
	}
}

// addRuntimeFiles adds what the repository cannot hold: a dangling link
// (unreadable-file) and a file name with a colon, which Go module zips
// refuse.
func addRuntimeFiles(t *testing.T, root string) {
	t.Helper()
	if err := os.Symlink("nowhere.rst", filepath.Join(root, "docs", "gone.rst")); err != nil {
		t.Fatal(err)
	}
	// A code file that cannot be read: unreadable-code-file.
	if err := os.Symlink("nowhere.c", filepath.Join(root, "src", "gone.c")); err != nil {
		t.Fatal(err)
	}
	err := os.WriteFile(filepath.Join(root, "docs", "co:lon, ü.rst"), []byte(".. test:: Colon\n   :id: TS-COLON\n   :verifies: REQ-1, REQ-1\n"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
}

func copyTree(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}

// The schema check is not vacuous: a wrong level, a Windows path as uri
// and a wrong version are each refused.
func TestSARIFSchemaRejects(t *testing.T) {
	sch := sarifSchema(t)
	out, _ := seg(t, "check", "--format", "sarif", "--at", "2026-11-29", filepath.Join("..", "examples", "broken"))
	for name, bad := range map[string][]byte{
		"level":   bytes.Replace(out, []byte(`"level": "error"`), []byte(`"level": "fatal"`), 1),
		"uri":     bytes.Replace(out, []byte(`"uri": "docs/`), []byte(`"uri": "docs\\`), 1),
		"version": bytes.Replace(out, []byte(`"version": "2.1.0"`), []byte(`"version": "2.0"`), 1),
	} {
		if bytes.Equal(bad, out) {
			t.Fatalf("%s: nothing replaced", name)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if sch.Validate(inst) == nil {
			t.Errorf("%s: a broken log validates", name)
		}
	}
}
