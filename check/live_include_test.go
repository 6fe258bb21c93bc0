package check_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/check"
)

// TestLiveIncludes: the live check (the language server's) follows
// includes as a run does, after edits of the including document (on disk
// and in a buffer) and of the included file.
func TestLiveIncludes(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"index.rst":   ".. include:: parts/a.inc\n\n.. sreq:: top\n   :id: TOP\n   :refines: A, B\n",
		"parts/a.inc": ".. sreq:: a\n   :id: A\n",
	})
	tr, err := check.Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	l := tr.Live(check.Options{})
	same := func(step string, wantUnresolved int) {
		t.Helper()
		c, err := l.Run(liveAt)
		if err != nil {
			t.Fatal(err)
		}
		_, want := fresh(t, root)
		got := reports(t, c)
		if got != want {
			t.Errorf("%s: the live check is not the fresh one:\n%s", step, cmp.Diff(want, got))
		}
		if n := strings.Count(got, `"code": "unresolved-link"`); n != wantUnresolved {
			t.Errorf("%s: %d unresolved links, want %d", step, n, wantUnresolved)
		}
	}
	same("first run", 1) // B is nowhere yet
	writeFiles(t, root, map[string]string{"parts/a.inc": ".. sreq:: a\n   :id: A\n\n.. sreq:: b\n   :id: B\n"})
	l.Changed("parts/a.inc")
	same("the included file edited", 0)
	writeFiles(t, root, map[string]string{"index.rst": ".. sreq:: top\n   :id: TOP\n   :refines: A, B\n"})
	l.Changed("index.rst")
	same("the include removed", 2)
	text := ".. include:: parts/a.inc\n\n.. sreq:: top\n   :id: TOP\n   :refines: A, B\n"
	writeFiles(t, root, map[string]string{"index.rst": text})
	l.SetText("index.rst", []byte(text))
	same("the include back, in a buffer", 0)
}
