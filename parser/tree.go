package parser

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/glob"
	"github.com/seg-trace/seg/source"
)

// skippedDirs are folders that hold build output or other people's files,
// never a project's own documentation.
var skippedDirs = map[string]bool{"_build": true, "node_modules": true, "vendor": true}

// Listed is one file the walk of the tree found: its slash path relative
// to the root and its type as the folder listing gives it (no stat).
type Listed struct {
	Path string
	Type fs.FileMode
	// Err is set on a folder the walk could not list.
	Err error
}

// ListFiles walks the tree as format.md's "Which files" says, without
// reading any file: every *.rst file under root except hidden names,
// _build, node_modules, vendor and the config's exclude globs, symlinked
// folders not followed. It returns the files sorted by path, and the
// folders it could not list, each with its error. The error is only for a
// root that cannot be read.
func ListFiles(root string, cfg *Config) (files []Listed, unlisted []Listed, err error) {
	if cfg == nil {
		cfg = DefaultConfig()
	}
	st, err := os.Stat(root)
	if err != nil {
		return nil, nil, err
	}
	if !st.IsDir() {
		return nil, nil, fmt.Errorf("%s: not a folder", root)
	}
	walkRoot := root
	if lst, err := os.Lstat(root); err == nil && lst.Mode()&fs.ModeSymlink != 0 {
		// WalkDir does not follow a link it starts at: a root given as a
		// link to a folder would list nothing, and pass. "link/." is the
		// folder; the paths below it are the same.
		walkRoot = root + string(filepath.Separator) + "."
	}
	err = filepath.WalkDir(walkRoot, func(p string, d fs.DirEntry, err error) error {
		rel, rerr := filepath.Rel(root, p)
		if rerr != nil {
			return rerr
		}
		rel = filepath.ToSlash(rel)
		if err != nil {
			if rel == "." {
				return err
			}
			unlisted = append(unlisted, Listed{Path: rel, Type: fs.ModeDir, Err: err})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if rel == "." {
			return nil
		}
		name := d.Name()
		if strings.HasPrefix(name, ".") || d.IsDir() && skippedDirs[name] || excluded(cfg.Exclude, rel) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(name, ".rst") {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			// A link to a file is read; a link to a folder is not followed.
			if t, err := os.Stat(p); err == nil && t.IsDir() {
				return nil
			}
		}
		files = append(files, Listed{Path: rel, Type: d.Type()})
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, unlisted, nil
}

// Unreadable is the File of a path that cannot be read (code
// unreadable-file): it has no nodes and one error.
func Unreadable(sf *source.File, err error) *File {
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg = pe.Err.Error()
	}
	return &File{Path: sf.Name(), Source: sf, Diagnostics: diag.List{{
		Code:    CodeUnreadable,
		Message: "cannot read " + sf.Name() + ": " + msg,
		Span:    source.At(sf.Whole()),
	}}}
}

// excluded reports whether any exclude glob names rel (or, through the
// walk, one of its folders).
func excluded(globs []string, rel string) bool {
	for _, g := range globs {
		g = strings.Trim(strings.TrimPrefix(g, "./"), "/")
		if glob.Match(g, rel) {
			return true
		}
	}
	return false
}

// InTree reports whether ListFiles would list a file at rel (a slash path
// relative to the root) by its path alone, whether or not the file
// exists: an .rst file with no hidden name, under no hidden, _build,
// node_modules or vendor folder, that no exclude glob names. The language
// server asks it of a buffer not saved yet.
func InTree(rel string, cfg *Config) bool {
	if cfg == nil {
		cfg = DefaultConfig()
	}
	if !strings.HasSuffix(rel, ".rst") {
		return false
	}
	segs := strings.Split(rel, "/")
	for i, s := range segs {
		if s == "" || s == "." || s == ".." || strings.HasPrefix(s, ".") || i < len(segs)-1 && skippedDirs[s] {
			return false
		}
		if excluded(cfg.Exclude, strings.Join(segs[:i+1], "/")) {
			return false
		}
	}
	return true
}
