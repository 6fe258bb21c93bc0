package cli

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// The scripts in testdata/script run the seg command as a user would and
// compare its exact output. Run with -update to rewrite the expected
// output in the scripts after a deliberate change.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"seg": func() { os.Exit(Execute(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

var update = os.Getenv("SEG_UPDATE_SCRIPTS") != ""

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "")
			// testscript's HOME is /no-home; keep the parse cache in the
			// script's own work folder, never in the tree it checks.
			env.Setenv("SEG_CACHE_DIR", env.Getenv("WORK")+"/.seg-cache")
			return nil
		},
	})
}
