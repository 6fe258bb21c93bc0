package check

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/seg-trace/seg/internal/fileid"
)

// A source file's identity stands for its content only once the file
// last changed more than fileid.RacyWindow before the run: a write within the
// same tick of the file system's clock as the stat could leave the
// identity as it was. A live run reads such a file again next time.
func TestSourcesTrustSettledFiles(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"a.rst":   ".. impl:: I\n   :id: I\n   :source: src/a.c\n",
		"src/a.c": "int a;\n",
	})
	name := filepath.Join(root, "src", "a.c")
	tr, err := Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	parsed, _, err := ParseTree(root, tr.Config)
	if err != nil {
		t.Fatal(err)
	}
	trusted := func(now time.Time) bool {
		t.Helper()
		m := &sourceMemo{now: func() time.Time { return now }}
		tr.sources(parsed, nil, m)
		_, ok := m.known["src/a.c"]
		return ok
	}
	// changed is when the file last changed, as far as seg can tell.
	changed := func() time.Time {
		t.Helper()
		st, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		id := fileid.Of(st)
		return time.Unix(0, max(id.Mtime, id.Ctime))
	}
	if trusted(changed().Add(fileid.RacyWindow / 2)) {
		t.Error("a file that changed within the racy window is trusted by its identity")
	}
	if !trusted(changed().Add(fileid.RacyWindow + time.Second)) {
		t.Error("a file that changed before the racy window is not trusted by its identity")
	}
	// Its modification time put an hour back: where the system keeps a
	// change time, that moved to now.
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(name, old, old); err != nil {
		t.Fatal(err)
	}
	if trusted(changed().Add(fileid.RacyWindow / 2)) {
		t.Error("a file whose change time is within the racy window is trusted by its identity")
	}
	// A modification time ahead of the clock never settles.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(name, later, later); err != nil {
		t.Fatal(err)
	}
	if trusted(later.Add(-30 * time.Minute)) {
		t.Error("a file modified after the clock's time is trusted by its identity")
	}
}
