// Package glob matches slash paths against the patterns seg's
// configuration and options take: path.Match within each segment ("*",
// "?" and "[...]" never cross a "/"), and a whole segment "**" for any
// number of segments, none included.
package glob

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// HasMeta reports whether p holds a wildcard.
func HasMeta(p string) bool { return strings.ContainsAny(p, `*?[\`) }

// Match reports whether the slash path name matches pattern. A malformed
// pattern matches nothing.
func Match(pattern, name string) bool {
	return match(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func match(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 0 && pat[0] == "**" {
				pat = pat[1:]
			}
			if len(pat) == 0 {
				return true
			}
			for i := 0; i <= len(segs); i++ {
				if match(pat, segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], segs[0]); err != nil || !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// Valid reports whether every segment of pattern is well formed.
func Valid(pattern string) bool {
	for _, s := range strings.Split(pattern, "/") {
		if _, err := path.Match(s, ""); err != nil {
			return false
		}
	}
	return true
}

// A Tree is where Files looks for files: a folder of the file system
// (Dir), or anything else that can be walked, such as a commit of a
// repository (FS). Names are slash paths relative to the tree's root,
// already cleaned; they may start with "../".
type Tree interface {
	// Stat describes the named file, following links.
	Stat(name string) (fs.FileInfo, error)
	// WalkDir walks the folder name as fs.WalkDir does, giving fn each
	// path as name + "/" + the path below it.
	WalkDir(name string, fn fs.WalkDirFunc) error
}

// Dir is the tree of the file system under the folder root.
func Dir(root string) Tree { return dirTree(root) }

type dirTree string

func (d dirTree) path(name string) string { return filepath.Join(string(d), filepath.FromSlash(name)) }

func (d dirTree) Stat(name string) (fs.FileInfo, error) { return os.Stat(d.path(name)) }

func (d dirTree) WalkDir(name string, fn fs.WalkDirFunc) error {
	base := d.path(name)
	return filepath.WalkDir(base, func(p string, e fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(base, p)
		return fn(path.Join(name, filepath.ToSlash(rel)), e, err)
	})
}

// FS is the tree of fsys under its folder dir (a valid fs path): names
// that climb out of fsys ("../" past its top) name nothing. fsys's Stat
// is taken to follow links, as os.DirFS's does.
func FS(fsys fs.FS, dir string) Tree { return fsTree{fsys, dir} }

type fsTree struct {
	fsys fs.FS
	dir  string
}

func (t fsTree) path(name string) (string, bool) {
	p := path.Join(t.dir, name)
	return p, fs.ValidPath(p)
}

func (t fsTree) Stat(name string) (fs.FileInfo, error) {
	p, ok := t.path(name)
	if !ok {
		return nil, fs.ErrNotExist
	}
	return fs.Stat(t.fsys, p)
}

func (t fsTree) WalkDir(name string, fn fs.WalkDirFunc) error {
	p, ok := t.path(name)
	if !ok {
		return fs.ErrNotExist
	}
	return fs.WalkDir(t.fsys, p, func(q string, e fs.DirEntry, err error) error {
		return fn(path.Join(name, strings.TrimPrefix(strings.TrimPrefix(q, p), "/")), e, err)
	})
}

// Files lists, sorted, the regular files (links to regular files
// included) of the tree whose slash paths relative to its root match
// pattern ("../" segments allowed before any wildcard). A pattern
// without wildcards that names a folder stands for every file under it.
// Hidden names (starting with ".") are not walked into unless the pattern
// names them; links to folders are not followed. A folder that cannot be
// listed gives an *UnreadableError beside the files found.
func Files(t Tree, pattern string) ([]string, error) {
	pattern = strings.TrimSuffix(path.Clean(pattern), "/")
	segs := strings.Split(pattern, "/")
	i := 0
	for i < len(segs) && !HasMeta(segs[i]) {
		i++
	}
	base := path.Join(segs[:i]...)
	if base == "" {
		base = "."
	}
	st, err := t.Stat(base)
	if err != nil {
		return nil, nil // nothing there: no match
	}
	if i == len(segs) {
		if st.Mode().IsRegular() {
			return []string{pattern}, nil
		}
		if !st.IsDir() {
			return nil, nil
		}
		segs = append(segs, "**")
	}
	rest := segs[i:]
	var out []string
	var unreadable []string
	err = t.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			// A folder that cannot be listed may hold matches: the
			// caller is told, with the matches found elsewhere.
			unreadable = append(unreadable, p)
			return nil
		}
		if p == base {
			return nil
		}
		rel := strings.TrimPrefix(p, base+"/")
		if base == "." {
			rel = p
		}
		if strings.HasPrefix(d.Name(), ".") && !namesHidden(rest) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if st, err := t.Stat(p); err != nil || !st.Mode().IsRegular() {
				return nil
			}
		} else if !d.Type().IsRegular() {
			return nil
		}
		if match(rest, strings.Split(rel, "/")) {
			out = append(out, p)
		}
		return nil
	})
	slices.Sort(out)
	if err == nil && len(unreadable) > 0 {
		err = &UnreadableError{Paths: unreadable}
	}
	return out, err
}

// UnreadableError is a walk that could not list some folders under a
// pattern's fixed part: their files, if they match, are missing from the
// list.
type UnreadableError struct {
	Paths []string // slash paths of the folders, in walk order
}

func (e *UnreadableError) Error() string {
	return "cannot read " + strings.Join(e.Paths, ", ")
}

// namesHidden reports whether a pattern's segments name a hidden file or
// folder on purpose.
func namesHidden(segs []string) bool {
	for _, s := range segs {
		if strings.HasPrefix(s, ".") {
			return true
		}
	}
	return false
}
