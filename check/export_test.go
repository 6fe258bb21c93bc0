package check

import (
	"io/fs"
	"testing"
	"time"

	"github.com/seg-trace/seg/internal/fileid"
	"github.com/seg-trace/seg/internal/glob"
)

// SetSourceClock makes the :source: stage of l's runs read its racy
// window on now: a clock ahead of the files' times makes every file
// settled, so that a run trusts identities it would otherwise read again.
func SetSourceClock(l *Live, now func() time.Time) { l.memo.sources.now = now }

// SetResultsClock does the same for the results stage of l's runs.
func SetResultsClock(l *Live, now func() time.Time) { l.memo.results.now = now }

// SetSourceTree puts tree where every run looks for :source: entries,
// until the test ends (a tree that cannot list a folder, which root
// can always list).
func SetSourceTree(t testing.TB, tree func(root string) glob.Tree) {
	old := sourceTree
	sourceTree = tree
	t.Cleanup(func() { sourceTree = old })
}

// ChangeTime is the change time of a file in nanoseconds, 0 where seg
// reads none.
func ChangeTime(st fs.FileInfo) int64 {
	return fileid.Of(st).Ctime
}

// Deps is the record of the source files c read that a stored report of
// it would keep.
func Deps(c *Check) string { return c.deps }

// Patched reports whether l's last run patched the graph of the run
// before.
func Patched(l *Live) bool {
	return l.memo.graph.Delta().Valid()
}
