package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// The scripts in testdata/script run the seg command as a user would and
// compare its exact output. Run with -update to rewrite the expected
// output in the scripts after a deliberate change.
func TestMain(m *testing.M) {
	testscript.Main(stopsBrowser{m}, map[string]func(){
		"seg": func() { os.Exit(Execute(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// stopsBrowser runs the tests, then stops the Chromium the browser
// tests share (browser).
type stopsBrowser struct{ m *testing.M }

func (s stopsBrowser) Run() int {
	defer stopBrowser()
	return s.m.Run()
}

var update = os.Getenv("SEG_UPDATE_SCRIPTS") != ""

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: update,
		Cmds:          map[string]func(*testscript.TestScript, bool, []string){"exits": cmdExits},
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "")
			// testscript's HOME is /no-home; keep the parse cache in the
			// script's own work folder, never in the tree it checks.
			env.Setenv("SEG_CACHE_DIR", env.Getenv("WORK")+"/.seg-cache")
			return nil
		},
	})
}

// cmdExits is the scripts' way to run a command that should fail:
// "exits N PROG ARGS..." runs PROG as exec does and fails unless it exits
// with exactly N. "! exec" would accept any failure, a crash (exit 2 from
// a panic) where a finding (exit 1) is expected included, so the scripts
// do not use it (TestScriptsAssertExitCodes).
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits N PROG [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil || want <= 0 {
		ts.Fatalf("exits: %q is no exit code above 0 (a command that should succeed is run with exec)", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("exits: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// Every script asserts the exact exit code of a command that fails.
func TestScriptsAssertExitCodes(t *testing.T) {
	files, err := filepath.Glob("testdata/script/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "-- ") {
				break // the script ends where its files start
			}
			if regexp.MustCompile(`^\s*(\[[^]]*\]\s*)*!\s*exec\b`).MatchString(line) {
				t.Errorf("%s:%d: %q accepts any failure; use exits N", f, i+1, line)
			}
		}
	}
}
