package results

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/seg-trace/seg/diag"
	pathglob "github.com/seg-trace/seg/internal/glob"
	"github.com/seg-trace/seg/internal/safefile"
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
			// A folder the pattern reaches that cannot be listed
			// (*pathglob.UnreadableError) is an error too: a results file
			// in it, a failing one included, would be missing unseen.
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
		s.Open = func() (io.ReadCloser, error) {
			f, _, err := safefile.Open(name)
			if err != nil {
				return nil, err
			}
			return f, nil
		}
		sources = append(sources, s)
	}
	return sources, diags, nil
}

// readable checks that name is a regular file seg may open (package
// safefile): a FIFO or a device would block the run or never end.
func readable(name string) error {
	f, st, err := safefile.Open(name)
	if errors.Is(err, safefile.ErrNotRegular) && st != nil {
		return safefile.Describe(st.Mode())
	}
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

// resultsTree is the file system results globs are matched on (tests put
// one in its place that cannot list a folder, which root always can).
var resultsTree = pathglob.Dir

// globFiles returns the regular files that the absolute glob full names,
// as internal/glob lists them for every pattern seg takes (:source:,
// exclude, code paths): hidden names not walked into unless the pattern
// names them, links to files kept, links to folders not followed, and a
// folder that cannot be listed a *pathglob.UnreadableError.
func globFiles(full string) ([]string, error) {
	slash := filepath.ToSlash(full)
	vol := filepath.VolumeName(full)
	rootDir := vol + string(filepath.Separator)
	pattern := strings.TrimPrefix(strings.TrimPrefix(slash, filepath.ToSlash(vol)), "/")
	if !pathglob.Valid(pattern) {
		return nil, path.ErrBadPattern
	}
	rel, err := pathglob.Files(resultsTree(rootDir), pattern)
	out := make([]string, len(rel))
	for i, r := range rel {
		out[i] = filepath.Join(rootDir, filepath.FromSlash(r))
	}
	return out, err
}
