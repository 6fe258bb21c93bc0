package cli

import (
	"fmt"
	"io"

	"github.com/seg-trace/seg/check"
)

// listFiles is seg check --list-files: the listing of the tree, with no
// file read (docs/check.md, "Which files a check reads").
func listFiles(t *check.Tree, stdout io.Writer) (int, check.Stats, error) {
	l, err := check.List(t.Root, t.Config)
	if err != nil {
		return 0, check.Stats{}, fmt.Errorf("seg: %v", err)
	}
	return 0, check.Stats{}, l.Write(stdout)
}

// leftOutNote prints, on standard error, the one line that says which
// documents of the tree the run left out (other Sphinx projects, files
// outside the source folder) and how to read them.
func leftOutNote(t *check.Tree, stderr io.Writer) {
	if l := t.Listed(); l != nil {
		if n := l.Note(); n != "" {
			fmt.Fprintf(stderr, "seg: info: %s\n", n)
		}
	}
}
