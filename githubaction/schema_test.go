package githubaction_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// validator finds action-validator, the npm package (@action-validator/cli
// with @action-validator/core) that checks action.yml files and workflow
// files against SchemaStore's github-action.json and github-workflow.json
// schemas. SEG_ACTION_VALIDATOR names its command; else it is looked up on
// PATH. .ci/run installs it into a cache folder.
func validator(t *testing.T) string {
	t.Helper()
	return requireTool(t, "action-validator", "npm install --prefix DIR @action-validator/cli@0.6.0 @action-validator/core@0.6.0, then SEG_ACTION_VALIDATOR=DIR/node_modules/.bin/action-validator (.ci/run does)", func() (string, error) {
		if p := os.Getenv("SEG_ACTION_VALIDATOR"); p != "" {
			return exec.LookPath(p)
		}
		return exec.LookPath("action-validator")
	})
}

// validate runs the validator on one file; it reads a file named
// action.yml as an action, any other as a workflow.
func validate(t *testing.T, v, path string) (string, error) {
	t.Helper()
	out, err := exec.Command(v, path).CombinedOutput()
	return string(out), err
}

// workflowsInDoc writes every yaml block of a markdown file that is a
// whole workflow (it has jobs:) to its own file, and lists them.
func workflowsInDoc(t *testing.T, doc string) []string {
	t.Helper()
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	blocks := strings.Split(string(data), "```yaml\n")
	for i, b := range blocks[1:] {
		body, _, ok := strings.Cut(b, "\n```")
		if !ok || !strings.Contains(body, "\njobs:\n") {
			continue
		}
		f := filepath.Join(t.TempDir(), fmt.Sprintf("%s-block-%d.yml", filepath.Base(doc), i+1))
		if err := os.WriteFile(f, []byte(body+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// action.yml, the workflows of this repository, the example workflow and
// every workflow written out in docs/ci.md are valid by the schemas.
func TestSchemas(t *testing.T) {
	v := validator(t)
	files := []string{"../action.yml", "../docs/examples/seg.yml"}
	wf, _ := filepath.Glob("../.github/workflows/*.yml")
	if len(wf) == 0 {
		t.Error("no workflow in .github/workflows")
	}
	files = append(files, wf...)
	doc := workflowsInDoc(t, "../docs/ci.md")
	if len(doc) < 2 {
		t.Errorf("docs/ci.md: %d workflows found, want the action's and the one without it", len(doc))
	}
	files = append(files, doc...)
	for _, f := range files {
		if out, err := validate(t, v, f); err != nil {
			t.Errorf("%s is not valid: %v\n%s", f, err, out)
		}
	}
}

// The validator does reject a broken action and a broken workflow, so a
// pass above means something.
func TestSchemasRejectBrokenFiles(t *testing.T) {
	v := validator(t)
	action, err := os.ReadFile("../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// A run: step without shell: is not a composite action's step.
	broken := strings.Replace(string(action), "      shell: bash\n", "", 1)
	if broken == string(action) {
		t.Fatal("action.yml has no shell: bash line to remove")
	}
	if err := os.MkdirAll(filepath.Join(dir, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(dir, "a", "action.yml")
	if err := os.WriteFile(f, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := validate(t, v, f); err == nil {
		t.Errorf("an action step without shell: passed:\n%s", out)
	}

	example, err := os.ReadFile("../docs/examples/seg.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ old, new string }{
		{"runs-on:", "run-on:"},                              // a misspelt key
		{"security-events: write", "security-events: admin"}, // a value outside the enum
	} {
		bad := strings.Replace(string(example), c.old, c.new, 1)
		f := filepath.Join(dir, "bad.yml")
		if err := os.WriteFile(f, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := validate(t, v, f); err == nil {
			t.Errorf("a workflow with %q passed:\n%s", c.new, out)
		}
	}
}
