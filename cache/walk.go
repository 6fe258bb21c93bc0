package cache

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/seg-trace/seg/parser"
)

// This file repeats, without parsing, the walk of parser.ParseTree
// (format.md, "Which files"): the cache needs the file list before it
// decides which files to parse. It must choose exactly the same files and
// report exactly the same unreadable-file diagnostics; the tests of package
// cli compare every output with and without the cache. It goes once the
// parser exports its own walk (parser.ListFiles).

// skippedDirs are the folders the walk never enters.
var skippedDirs = map[string]bool{"_build": true, "node_modules": true, "vendor": true}

// codeUnreadable is the parser's code for a file or folder that cannot be
// read.
const codeUnreadable = "unreadable-file"

// ListFiles returns the slash paths, relative to root and sorted, of the
// files parser.ParseTree would parse, and the Files of the folders it
// could not list (as ParseTree reports them). The error is only for a root
// that cannot be read.
func ListFiles(root string, cfg *parser.Config) (paths []string, early []*parser.File, err error) {
	list, early, err := listFiles(root, cfg)
	for _, l := range list {
		paths = append(paths, l.rel)
	}
	return paths, early, err
}

// listed is a file the walk found, with its type as the folder listing
// gives it (no stat).
type listed struct {
	rel string
	typ fs.FileMode
}

func listFiles(root string, cfg *parser.Config) (files []listed, early []*parser.File, err error) {
	if cfg == nil {
		cfg = parser.DefaultConfig()
	}
	st, err := os.Stat(root)
	if err != nil {
		return nil, nil, err
	}
	if !st.IsDir() {
		return nil, nil, errors.New(root + ": not a folder")
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		rel, rerr := filepath.Rel(root, p)
		if rerr != nil {
			return rerr
		}
		rel = filepath.ToSlash(rel)
		if err != nil {
			if rel == "." {
				return err
			}
			early = append(early, unreadable(rel, err))
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
		files = append(files, listed{rel, d.Type()})
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	return files, early, nil
}

// errNotRegular is the parser's reason for not reading a FIFO, a device or
// a socket.
var errNotRegular = errors.New("not a regular file")

// readSource reads one listed file as parser.ParseTree does, with the same
// diagnostic when it cannot: a file that is not regular is not read
// (reading a FIFO could block the run). The bytes go into buf, grown as
// needed and returned for reuse: a warm run keeps no source, and fresh
// memory is what costs most on a busy machine.
func readSource(root string, l listed, buf []byte) ([]byte, *parser.File) {
	full := filepath.Join(root, filepath.FromSlash(l.rel))
	switch {
	case l.typ&fs.ModeSymlink != 0:
		st, err := os.Stat(full)
		if err == nil && !st.Mode().IsRegular() {
			err = errNotRegular
		}
		if err != nil {
			return buf, unreadable(l.rel, err)
		}
	case !l.typ.IsRegular():
		return buf, unreadable(l.rel, errNotRegular)
	}
	data, _, err := readFile(full, buf)
	if err != nil {
		return data, unreadable(l.rel, err)
	}
	return data, nil
}

// unreadable is the parser's File for a path that cannot be read.
func unreadable(rel string, err error) *parser.File {
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg = pe.Err.Error()
	}
	return &parser.File{Path: rel, Diagnostics: parser.Diagnostics{{
		Severity: parser.Error, Code: codeUnreadable,
		Message: "cannot read " + rel + ": " + msg,
		Span:    parser.Span{Start: parser.Pos{File: rel}},
	}}}
}

// excluded reports whether any exclude glob names rel.
func excluded(globs []string, rel string) bool {
	for _, g := range globs {
		if matchGlob(strings.Split(strings.Trim(g, "/"), "/"), strings.Split(rel, "/")) {
			return true
		}
	}
	return false
}

// matchGlob matches path segments against pattern segments: each is
// path.Match, and "**" stands for any number of folders (none included).
func matchGlob(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 0 && pat[0] == "**" {
				pat = pat[1:]
			}
			if len(pat) == 0 {
				return true
			}
			for i := 0; i <= len(segs); i++ {
				if matchGlob(pat, segs[i:]) {
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
