package results

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/seg-trace/seg/diag"
)

// Load finds the results files that patterns name, each a copy of base
// (its witnesses, config, rerun policy and origin) with its Path and Open
// set. A file is checked to be readable here and read later, as a stream,
// by Outcomes. A pattern is a file path or a glob (path.Match
// syntax per path element, plus "**" for any number of folders), relative
// to root unless absolute. The sources come sorted by Path (relative to
// root, forward slashes; a file outside root keeps a "../" path), each
// file once.
//
// A glob that matches no file is the warning no-results-file; a pattern
// without wildcards that names no file, or a file that cannot be read, is
// the error (seg could not do its job).
func Load(root string, patterns []string, base Source) ([]Source, diag.List, error) {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return nil, nil, err
	}
	var diags diag.List
	files := map[string]string{} // Path -> file name on disk
	for _, p := range patterns {
		full := filepath.FromSlash(p)
		if !filepath.IsAbs(full) {
			full = filepath.Join(absRoot, full)
		}
		if !hasMeta(p) {
			files[relPath(absRoot, full)] = full
			continue
		}
		matches, err := globFiles(full)
		if err != nil {
			return nil, nil, fmt.Errorf("results pattern %q: %w", p, err)
		}
		if len(matches) == 0 {
			diags = append(diags, diag.Diagnostic{
				Code:    CodeNoResultsFile,
				Message: fmt.Sprintf("no results file matches %q", p),
				Detail:  "The results pattern names no file, so it adds no outcome. Run the tests first, or correct the pattern (relative to the root).",
			})
		}
		for _, m := range matches {
			files[relPath(absRoot, m)] = m
		}
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	sources := make([]Source, 0, len(paths))
	for _, p := range paths {
		name := files[p]
		if err := readable(name); err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err // the path as the user knows it, not absolute
			}
			return nil, diags, fmt.Errorf("results file %s: %w", p, err)
		}
		s := base
		s.Path = p
		s.Open = func() (io.ReadCloser, error) { return os.Open(name) }
		sources = append(sources, s)
	}
	return sources, diags, nil
}

// readable checks that name is a regular file seg may open: a FIFO or a
// device would block the run or never end.
func readable(name string) error {
	fi, err := os.Stat(name)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return errors.New("a folder, not a file")
		}
		return errors.New("not a regular file")
	}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	return f.Close()
}

func relPath(root, file string) string {
	if r, err := filepath.Rel(root, file); err == nil {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(file)
}

// globFiles returns the regular files that the absolute glob full names.
func globFiles(full string) ([]string, error) {
	if !strings.Contains(full, "**") {
		ms, err := filepath.Glob(full)
		if err != nil {
			return nil, err
		}
		return regular(ms), nil
	}
	// Walk from the longest folder without wildcards.
	segs := strings.Split(filepath.ToSlash(full), "/")
	i := 0
	for i < len(segs) && !hasMeta(segs[i]) {
		i++
	}
	base := filepath.FromSlash(strings.Join(segs[:i], "/"))
	if base == "" {
		base = "/"
	}
	rest := segs[i:]
	for _, s := range rest {
		if _, err := path.Match(s, ""); err != nil {
			return nil, err
		}
	}
	var out []string
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == base {
				return fs.SkipAll // the folder does not exist: no match
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(base, p)
		if err != nil {
			return nil
		}
		if matchSegs(rest, strings.Split(filepath.ToSlash(rel), "/")) {
			out = append(out, p)
		}
		return nil
	})
	return out, err
}

func matchSegs(pat, name []string) bool {
	if len(pat) == 0 {
		return len(name) == 0
	}
	if pat[0] == "**" {
		for k := 0; k <= len(name); k++ {
			if matchSegs(pat[1:], name[k:]) {
				return true
			}
		}
		return false
	}
	if len(name) == 0 {
		return false
	}
	ok, _ := path.Match(pat[0], name[0])
	return ok && matchSegs(pat[1:], name[1:])
}

func regular(paths []string) []string {
	out := paths[:0]
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			out = append(out, p)
		}
	}
	return out
}
