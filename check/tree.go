package check

import (
	"io/fs"
	"strings"

	"github.com/seg-trace/seg/parser"
)

// Listed is one file the walk of the tree found: its slash path relative
// to the root and its type as the folder listing gives it (no stat).
type Listed struct {
	Path string
	Type fs.FileMode
	// Err is set on a folder the walk could not list.
	Err error
}

// inTree reports whether the walk of a tree with no Sphinx project
// (walkTree) would list a file at rel, a slash path relative to the root,
// by its path alone, whether or not the file exists: an .rst file with no
// hidden name, under no hidden, _build, node_modules or vendor folder,
// that no exclude glob names. The language server asks it of a buffer not
// saved yet, and the code tags scan of the files a document read is.
func inTree(rel string, cfg *parser.Config) bool {
	if cfg == nil {
		cfg = parser.DefaultConfig()
	}
	if !strings.HasSuffix(rel, ".rst") {
		return false
	}
	segs := strings.Split(rel, "/")
	for i, s := range segs {
		if s == "" || s == "." || s == ".." || strings.HasPrefix(s, ".") || i < len(segs)-1 && skippedDir(s) {
			return false
		}
		if excludedBySeg(cfg.Exclude, strings.Join(segs[:i+1], "/")) {
			return false
		}
	}
	return true
}
