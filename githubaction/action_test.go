package githubaction_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// requireTool finds an external tool the tests need, or skips saying how
// to install it; with SEG_REQUIRE_ACTION=1 (.ci/run) it fails instead.
func requireTool(t *testing.T, what, install string, find func() (string, error)) string {
	t.Helper()
	p, err := find()
	if err == nil {
		return p
	}
	msg := fmt.Sprintf("%s not found (%v): %s", what, err, install)
	if os.Getenv("SEG_REQUIRE_ACTION") == "1" {
		t.Fatal(msg + " (SEG_REQUIRE_ACTION=1)")
	}
	t.Skip(msg)
	return ""
}

// loadYAML reads a YAML file as JSON values, through Python's YAML
// reader (PyYAML, which pre-commit depends on): seg has no YAML library,
// and needs none but here.
func loadYAML(t *testing.T, path string) map[string]any {
	t.Helper()
	py := requireTool(t, "python3 with PyYAML", "apt-get install python3-yaml", func() (string, error) {
		var last error
		for _, name := range []string{"/usr/bin/python3", "python3"} {
			p, err := exec.LookPath(name)
			if err != nil {
				last = err
				continue
			}
			out, err := exec.Command(p, "-c", "import yaml").CombinedOutput()
			if err == nil {
				return p, nil
			}
			last = fmt.Errorf("%s: %v: %s", p, err, out)
		}
		return "", last
	})
	out, err := exec.Command(py, "-c", "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1], encoding='utf-8')), sys.stdout)", path).Output()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// step is one step of the composite action.
type step struct {
	ID, Name, If, Shell, Run, Uses string
	Env, With                      map[string]string
}

type action struct {
	inputs  map[string]string // name -> default
	outputs map[string]string // name -> value expression
	steps   []step
}

func strMap(v any) map[string]string {
	m := map[string]string{}
	if mm, ok := v.(map[string]any); ok {
		for k, x := range mm {
			m[k] = toString(x)
		}
	}
	return m
}

func readAction(t *testing.T) *action {
	t.Helper()
	doc := loadYAML(t, "../action.yml")
	a := &action{inputs: map[string]string{}, outputs: map[string]string{}}
	for name, v := range doc["inputs"].(map[string]any) {
		a.inputs[name] = toString(v.(map[string]any)["default"])
	}
	for name, v := range doc["outputs"].(map[string]any) {
		a.outputs[name] = toString(v.(map[string]any)["value"])
	}
	runs := doc["runs"].(map[string]any)
	if runs["using"] != "composite" {
		t.Fatalf("runs.using = %v, want composite", runs["using"])
	}
	for _, s := range runs["steps"].([]any) {
		m := s.(map[string]any)
		a.steps = append(a.steps, step{
			ID: toString(m["id"]), Name: toString(m["name"]), If: toString(m["if"]),
			Shell: toString(m["shell"]), Run: toString(m["run"]), Uses: toString(m["uses"]),
			Env: strMap(m["env"]), With: strMap(m["with"]),
		})
	}
	return a
}

// Every run: script gets its inputs from env: no ${{ }} inside a script,
// where a value would be pasted into shell code.
func TestActionScriptsTakeNoExpressions(t *testing.T) {
	a := readAction(t)
	runs := 0
	for _, s := range a.steps {
		if s.Run == "" {
			continue
		}
		runs++
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %q: run: holds an expression; pass it through env:", s.Name)
		}
		if s.Shell != "bash" {
			t.Errorf("step %q: shell %q, want bash", s.Name, s.Shell)
		}
	}
	if runs < 4 {
		t.Errorf("only %d run: steps found", runs)
	}
}

// run is one run of the action, as the runner would make it, with the
// uses: steps recorded instead of run.
type run struct {
	t         *testing.T
	a         *action
	inputs    map[string]string
	github    map[string]any
	workspace string
	temp      string
	path      []string // GITHUB_PATH additions, newest first

	steps    map[string]map[string]any // id -> {outputs, outcome}
	ran      []string                  // names of the steps run
	skipped  []string
	uses     map[string]map[string]string // uses: (without @ref) -> its with:
	stdout   strings.Builder
	failedAt string // the step that failed, "" for none
	outputs  map[string]string
}

// runAction runs the action with these inputs (over the defaults) and
// this github context (event_name, repository, ...) in workspace.
func runAction(t *testing.T, workspace string, inputs map[string]string, github map[string]any) *run {
	t.Helper()
	a := readAction(t)
	r := &run{t: t, a: a, inputs: map[string]string{}, github: github, workspace: workspace,
		temp: t.TempDir(), steps: map[string]map[string]any{}, uses: map[string]map[string]string{}}
	for k, v := range a.inputs {
		r.inputs[k] = v
	}
	for k, v := range inputs {
		if _, ok := a.inputs[k]; !ok {
			t.Fatalf("action.yml has no input %q", k)
		}
		r.inputs[k] = v
	}
	top, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	r.github["action_path"] = top
	r.github["workspace"] = workspace
	seedInstall(t, r.temp, top)
	for _, s := range a.steps {
		ctx := r.context()
		ok, err := evalIf(s.If, ctx)
		if err != nil {
			t.Fatalf("step %q: if: %v", s.Name, err)
		}
		if !ok {
			r.skipped = append(r.skipped, s.Name)
			if s.ID != "" {
				r.steps[s.ID] = map[string]any{"outputs": map[string]any{}, "outcome": "skipped", "conclusion": "skipped"}
			}
			continue
		}
		r.ran = append(r.ran, s.Name)
		outcome := "success"
		outputs := map[string]any{}
		if s.Uses != "" {
			with := map[string]string{}
			for k, v := range s.With {
				if with[k], err = interpolate(v, ctx); err != nil {
					t.Fatalf("step %q: with.%s: %v", s.Name, k, err)
				}
			}
			name, _, _ := strings.Cut(s.Uses, "@")
			r.uses[name] = with
		} else {
			var code int
			code, outputs = r.runScript(s, ctx)
			if code != 0 {
				outcome = "failure"
				r.failedAt = s.Name
			}
		}
		if s.ID != "" {
			r.steps[s.ID] = map[string]any{"outputs": outputs, "outcome": outcome, "conclusion": outcome}
		}
	}
	r.outputs = map[string]string{}
	for k, v := range a.outputs {
		if r.outputs[k], err = interpolate(v, r.context()); err != nil {
			t.Fatalf("output %s: %v", k, err)
		}
	}
	return r
}

func (r *run) context() *exprContext {
	in := map[string]any{}
	for k, v := range r.inputs {
		in[k] = v
	}
	steps := map[string]any{}
	for k, v := range r.steps {
		steps[k] = v
	}
	return &exprContext{
		values: map[string]any{
			"inputs": in, "steps": steps, "github": r.github,
			"runner": map[string]any{"temp": r.temp, "os": "Linux"},
		},
		failed: r.failedAt != "",
	}
}

// runScript runs a run: step with bash as GitHub's runner does (bash
// --noprofile --norc -eo pipefail FILE), with the runner's variables and
// files, and returns its exit code and outputs.
func (r *run) runScript(s step, ctx *exprContext) (int, map[string]any) {
	t := r.t
	dir := t.TempDir()
	script := filepath.Join(dir, "step.sh")
	if err := os.WriteFile(script, []byte(s.Run), 0o644); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range []string{"GITHUB_OUTPUT", "GITHUB_PATH", "GITHUB_ENV", "GITHUB_STEP_SUMMARY"} {
		files[f] = filepath.Join(dir, strings.ToLower(f))
		if err := os.WriteFile(files[f], nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "PATH" || strings.HasPrefix(k, "GITHUB_") || strings.HasPrefix(k, "RUNNER_") || strings.HasPrefix(k, "INPUT_") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "PATH="+strings.Join(append(slices.Clone(r.path), os.Getenv("PATH")), string(os.PathListSeparator)))
	env = append(env,
		"GITHUB_ACTIONS=true", "CI=true",
		"GITHUB_ACTION_PATH="+toString(r.github["action_path"]),
		"GITHUB_WORKSPACE="+r.workspace,
		"RUNNER_TEMP="+r.temp,
		"GITHUB_EVENT_NAME="+toString(r.github["event_name"]),
		"GITHUB_REPOSITORY="+toString(r.github["repository"]),
		"GITHUB_SHA="+toString(r.github["sha"]),
		"GITHUB_SERVER_URL=https://github.com",
	)
	for k, f := range files {
		env = append(env, k+"="+f)
	}
	keys := make([]string, 0, len(s.Env))
	for k := range s.Env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v, err := interpolate(s.Env[k], ctx)
		if err != nil {
			t.Fatalf("step %q: env.%s: %v", s.Name, k, err)
		}
		env = append(env, k+"="+v)
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	cmd.Dir = r.workspace
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	r.stdout.Write(out)
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("step %q: %v", s.Name, err)
		}
		code = ee.ExitCode()
	}
	outputs := map[string]any{}
	for k, v := range parseKV(t, files["GITHUB_OUTPUT"]) {
		outputs[k] = v
	}
	data, _ := os.ReadFile(files["GITHUB_PATH"])
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line != "" {
			r.path = append([]string{line}, r.path...)
		}
	}
	summary, _ := os.ReadFile(files["GITHUB_STEP_SUMMARY"])
	r.stdout.WriteString(string(summary))
	return code, outputs
}

// parseKV reads a GITHUB_OUTPUT file: NAME=VALUE lines and NAME<<DELIM
// blocks.
func parseKV(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if k, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(k, "=") {
			var val []string
			for sc.Scan() && sc.Text() != delim {
				val = append(val, sc.Text())
			}
			m[k] = strings.Join(val, "\n")
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("GITHUB_OUTPUT line %q is neither NAME=VALUE nor NAME<<DELIM", line)
		}
		m[k] = v
	}
	return m
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func pushEvent() map[string]any {
	return map[string]any{"event_name": "push", "repository": "acme/brakes", "actor": "alice", "sha": "0123456789abcdef0123456789abcdef01234567", "event": map[string]any{}}
}

func prEvent(headRepo, actor string) map[string]any {
	g := pushEvent()
	g["event_name"] = "pull_request"
	g["actor"] = actor
	g["event"] = map[string]any{"pull_request": map[string]any{"head": map[string]any{"repo": map[string]any{"full_name": headRepo}}}}
	return g
}

func needBash(t *testing.T) {
	t.Helper()
	requireTool(t, "bash and jq", "apt-get install jq (bash is there on every runner)", func() (string, error) {
		if runtime.GOOS == "windows" {
			return "", fmt.Errorf("these tests run the action's bash steps on Linux or macOS")
		}
		if _, err := exec.LookPath("bash"); err != nil {
			return "", err
		}
		return exec.LookPath("jq")
	})
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go not on PATH: the action installs seg with go install")
	}
}

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// sarifURIs lists every artifactLocation uri of a SARIF log.
func sarifURIs(v any, out *[]string) {
	switch x := v.(type) {
	case map[string]any:
		if al, ok := x["artifactLocation"].(map[string]any); ok {
			*out = append(*out, toString(al["uri"]))
		}
		for _, y := range x {
			sarifURIs(y, out)
		}
	case []any:
		for _, y := range x {
			sarifURIs(y, out)
		}
	}
}

// A tree whose trace holds, at the workspace's top, on a push: seg is
// installed from the action's folder, the check passes, the SARIF log is
// uploaded, the matrix is written and uploaded, the gate passes.
func TestActionCleanTree(t *testing.T) {
	needBash(t)
	ws := t.TempDir()
	copyTree(t, "../examples/brake", ws)
	r := runAction(t, ws, map[string]string{"args": "--at 2026-11-29"}, pushEvent())
	if r.failedAt != "" {
		t.Fatalf("step %q failed:\n%s", r.failedAt, r.stdout.String())
	}
	if r.outputs["exit-code"] != "0" {
		t.Errorf("exit-code %q, want 0", r.outputs["exit-code"])
	}
	if len(r.skipped) != 0 {
		t.Errorf("steps skipped: %q", r.skipped)
	}
	if with := r.uses["actions/setup-go"]; with["go-version-file"] != filepath.Join(toString(r.github["action_path"]), "go.mod") || with["cache"] != "false" {
		t.Errorf("setup-go with: %v", with)
	}
	up := r.uses["github/codeql-action/upload-sarif"]
	if up == nil || up["sarif_file"] != r.outputs["sarif-file"] || up["category"] != "seg" {
		t.Fatalf("upload-sarif with: %v (outputs %v)", up, r.outputs)
	}
	sarif := readJSON(t, up["sarif_file"])
	if sarif["version"] != "2.1.0" {
		t.Errorf("SARIF version %v", sarif["version"])
	}
	art := r.uses["actions/upload-artifact"]
	if art["name"] != "seg-traceability-matrix" || art["path"] != r.outputs["matrix-file"] || art["if-no-files-found"] != "error" {
		t.Errorf("upload-artifact with: %v (outputs %v)", art, r.outputs)
	}
	html, err := os.ReadFile(art["path"])
	if err != nil {
		t.Fatal(err)
	}
	// IDs link to their line at the commit.
	if !strings.Contains(string(html), "https://github.com/acme/brakes/blob/0123456789abcdef0123456789abcdef01234567/docs/") {
		t.Errorf("the matrix has no links to the commit's files")
	}
	out := r.stdout.String()
	for _, want := range []string{"seg 0.", "seg: 6 requirements: 6 satisfied, 0 failing, 0 unproven; 0 errors, 0 warnings (evaluated at 2026-11-29)", "seg check passed"} {
		if !strings.Contains(out, want) {
			t.Errorf("the log lacks %q:\n%s", want, out)
		}
	}
}

// A broken tree in a subfolder: annotations and SARIF paths are made
// relative to the repository; the uploads still run, and the gate fails
// the action.
func TestActionBrokenTreeInSubfolder(t *testing.T) {
	needBash(t)
	ws := t.TempDir()
	copyTree(t, "../examples/broken", filepath.Join(ws, "trace docs"))
	r := runAction(t, ws, map[string]string{"root": "./trace docs/", "args": "--at 2026-11-29", "matrix-artifact": "broken"}, pushEvent())
	if r.failedAt != "Gate" {
		t.Fatalf("failed at %q, want the gate:\n%s", r.failedAt, r.stdout.String())
	}
	if r.outputs["exit-code"] != "1" {
		t.Errorf("exit-code %q, want 1", r.outputs["exit-code"])
	}
	if r.uses["github/codeql-action/upload-sarif"] == nil || r.uses["actions/upload-artifact"]["name"] != "broken" {
		t.Errorf("uploads: %v", r.uses)
	}
	var uris []string
	sarifURIs(readJSON(t, r.outputs["sarif-file"]), &uris)
	if len(uris) == 0 {
		t.Fatal("no location in the SARIF log")
	}
	for _, u := range uris {
		if !strings.HasPrefix(u, "trace%20docs/docs/") {
			t.Errorf("SARIF uri %q is not relative to the repository", u)
		}
	}
	out := r.stdout.String()
	if !regexp.MustCompile(`(?m)^::error file=trace docs/docs/tests\.rst,line=6,col=15,.*unresolved link "SEG-SREQ-06"`).MatchString(out) {
		t.Errorf("no annotation at the repository's path:\n%s", out)
	}
	if strings.Contains(out, "::error file=docs/") {
		t.Errorf("an annotation keeps the root-relative path:\n%s", out)
	}
	if !strings.Contains(out, "::error title=seg::seg check failed (exit 1)") {
		t.Errorf("the gate does not say why:\n%s", out)
	}
	html, _ := os.ReadFile(r.outputs["matrix-file"])
	if !strings.Contains(string(html), "/blob/0123456789abcdef0123456789abcdef01234567/trace docs/docs/") {
		t.Errorf("matrix links lack the root's folder")
	}
}

// The SARIF upload: on by default, off on pull requests from forks and on
// Dependabot's runs (whose token cannot write it), as the input says
// otherwise.
func TestActionSARIFUploadGuard(t *testing.T) {
	needBash(t)
	ws := t.TempDir()
	copyTree(t, "../examples/brake", ws)
	for _, c := range []struct {
		name   string
		upload string
		github map[string]any
		want   bool
	}{
		{"push", "auto", pushEvent(), true},
		{"pull request from the repository", "auto", prEvent("acme/brakes", "alice"), true},
		{"pull request from a fork", "auto", prEvent("mallory/brakes", "mallory"), false},
		{"Dependabot", "auto", prEvent("acme/brakes", "dependabot[bot]"), false},
		{"fork, upload forced", "true", prEvent("mallory/brakes", "mallory"), true},
		{"push, upload off", "false", pushEvent(), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runAction(t, ws, map[string]string{"upload-sarif": c.upload, "args": "--at 2026-11-29", "matrix": "false"}, c.github)
			if r.failedAt != "" {
				t.Fatalf("step %q failed:\n%s", r.failedAt, r.stdout.String())
			}
			if got := r.uses["github/codeql-action/upload-sarif"] != nil; got != c.want {
				t.Errorf("uploaded %v, want %v", got, c.want)
			}
			if !c.want && !strings.Contains(r.stdout.String(), "::notice title=seg action::SARIF not uploaded: ") {
				t.Errorf("no notice says why:\n%s", r.stdout.String())
			}
			if _, ok := r.uses["actions/upload-artifact"]; ok || !slices.Contains(r.skipped, "seg matrix") {
				t.Errorf("matrix: false, but the matrix ran (skipped: %q)", r.skipped)
			}
		})
	}
}

// seg cannot run (no such root, a bad flag, a bad input): the action fails
// at once and uploads nothing.
func TestActionTrouble(t *testing.T) {
	needBash(t)
	ws := t.TempDir()
	copyTree(t, "../examples/brake", ws)
	for _, c := range []struct {
		name     string
		inputs   map[string]string
		failedAt string
		mention  string
	}{
		{"no such root", map[string]string{"root": "nowhere"}, "seg check", `cannot read root "nowhere"`},
		{"bad argument", map[string]string{"args": "--bogus"}, "seg check", "unknown flag --bogus"},
		{"bad input", map[string]string{"upload-sarif": "maybe", "matrix": "yes"}, "Read the inputs", "input upload-sarif must be auto, true or false, not 'maybe'"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runAction(t, ws, c.inputs, pushEvent())
			out := r.stdout.String()
			if r.failedAt != c.failedAt || !strings.Contains(out, c.mention) {
				t.Errorf("failed at %q, want %q mentioning %q:\n%s", r.failedAt, c.failedAt, c.mention, out)
			}
			if len(r.uses) > 1 || r.uses["github/codeql-action/upload-sarif"] != nil {
				t.Errorf("ran after the failure: %v", r.uses)
			}
		})
	}
}

// args are split at white space (line breaks too) and never globbed by
// the shell: with two results files, a shell glob would make the second
// one a stray argument (seg: exit 2); unexpanded, seg reads both.
func TestActionArgsAreNotGlobbed(t *testing.T) {
	needBash(t)
	ws := t.TempDir()
	copyTree(t, "../examples/brake", ws)
	for _, f := range []string{"x1.xml", "x2.xml"} {
		junit := `<testsuite name="s" tests="1"><testcase classname="k" name="` + f + `"/></testsuite>`
		if err := os.WriteFile(filepath.Join(ws, f), []byte(junit), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := runAction(t, ws, map[string]string{"args": "--at 2026-11-29\n  --results x*.xml  --witness BRK-IMPL-CTRL", "matrix": "false"}, pushEvent())
	if r.failedAt != "" || r.outputs["exit-code"] != "0" {
		t.Errorf("failed at %q, exit-code %q:\n%s", r.failedAt, r.outputs["exit-code"], r.stdout.String())
	}
}

// fail-on reaches seg check as --fail-on: with errors,failing, a new
// requirement that has no test yet (unproven) does not fail the action;
// with the default it does.
func TestActionFailOn(t *testing.T) {
	needBash(t)
	for _, tc := range []struct {
		failOn, code string
	}{{"errors,failing", "0"}, {"", "1"}} {
		ws := t.TempDir()
		copyTree(t, "../examples/brake", ws)
		if err := os.WriteFile(filepath.Join(ws, "docs", "new.rst"), []byte(".. sreq:: Written before its test\n   :id: BRK-SREQ-999\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		r := runAction(t, ws, map[string]string{"fail-on": tc.failOn, "args": "--at 2026-11-29", "matrix": "false"}, pushEvent())
		if r.outputs["exit-code"] != tc.code {
			t.Errorf("fail-on %q: failed at %q, exit-code %q, want %s:\n%s", tc.failOn, r.failedAt, r.outputs["exit-code"], tc.code, r.stdout.String())
		}
	}
}
