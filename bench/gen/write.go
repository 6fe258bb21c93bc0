package gen

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// ManifestName is the file, at the top of the output folder, that
// describes the tree written there. It also marks the folder as written by
// seggen, which is what lets -force clear it.
const ManifestName = "seggen.json"

// Manifest is the content of seggen.json.
type Manifest struct {
	Generator string   `json:"generator"` // always "seggen"
	Complete  bool     `json:"complete"`  // false while writing
	Root      string   `json:"root"`      // "docs" or "dense"
	At        string   `json:"at"`        // the date the tree is meant to be checked at
	Params    Params   `json:"params"`
	Counts    Counts   `json:"counts"`
	Bytes     int64    `json:"bytes"`
	Defects   []Defect `json:"defects"` // the planted defects, by file and line
	// Sources are the top folders of the source files the
	// implementations' :source: options name ("cmd", "internal").
	Sources []string `json:"sources,omitempty"`
}

// sourceTops are the only top folders seggen writes source files under,
// and so the only ones -force removes besides the tree's root.
var sourceTops = map[string]bool{"cmd": true, "internal": true}

// WriteOptions say how to write a tree.
type WriteOptions struct {
	// Force allows a non-empty output folder. If it holds a manifest of an
	// earlier run, the tree that run wrote is removed first; otherwise
	// nothing is removed and files are overwritten.
	Force   bool
	Workers int // default GOMAXPROCS
	// Warn receives notes for the user (may be nil).
	Warn io.Writer
}

// WriteDir writes the tree under out, which it creates if needed. Every
// file operation goes through an os.Root opened on out, so nothing is
// ever written outside it, symbolic links included.
func WriteDir(t *Tree, out string, o WriteOptions) (*Manifest, error) {
	if err := os.MkdirAll(out, 0o777); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(out)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if err := prepare(root, out, o); err != nil {
		return nil, err
	}
	m := &Manifest{Generator: "seggen", Root: t.root, At: RefDate, Params: t.params, Counts: t.Count(), Defects: []Defect{}}
	if err := writeManifest(root, m); err != nil {
		return nil, err
	}
	if err := makeDirs(root, t.files); err != nil {
		return nil, err
	}
	defects, total, err := writeFiles(t, root, o.Workers)
	if err != nil {
		return nil, err
	}
	for _, d := range defects {
		m.Defects = append(m.Defects, d...)
	}
	if err := writeSources(t, root, m); err != nil {
		return nil, err
	}
	m.Bytes = total
	m.Complete = true
	return m, writeManifest(root, m)
}

// makeDirs makes the folders of files, in order.
func makeDirs(root *os.Root, files []fileSpec) error {
	dirs := map[string]bool{}
	for i := range files {
		dirs[path.Dir(files[i].path)] = true
	}
	sorted := make([]string, 0, len(dirs))
	for d := range dirs {
		sorted = append(sorted, d)
	}
	sort.Strings(sorted)
	for _, d := range sorted {
		if err := root.MkdirAll(d, 0o777); err != nil {
			return err
		}
	}
	return nil
}

// writeFiles renders and writes the tree's files with workers goroutines
// (GOMAXPROCS when 0 or less); it returns each file's defects and how
// many bytes it wrote, or the first error.
func writeFiles(t *Tree, root *os.Root, workers int) (defects [][]Defect, total int64, err error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var (
		next     atomic.Int64
		written  atomic.Int64
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
		failed   atomic.Bool
	)
	defects = make([][]Defect, len(t.files))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := folderWriter{root: root}
			defer w.close()
			var buf []byte
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= len(t.files) {
					return
				}
				buf, defects[i] = t.Render(i, buf[:0])
				written.Add(int64(len(buf)))
				if err := w.write(t.files[i].path, buf); err != nil {
					errOnce.Do(func() { firstErr = err })
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, 0, firstErr
	}
	return defects, written.Load(), nil
}

// folderWriter writes files under root. Files come folder by folder; a
// root opened on the folder saves resolving the whole path again for
// every file.
type folderWriter struct {
	root    *os.Root
	dir     string
	dirRoot *os.Root // nil when the folder could not be opened
}

// write writes the file at p (relative to root).
func (w *folderWriter) write(p string, data []byte) error {
	d, name := path.Split(p)
	if d != w.dir || w.dirRoot == nil {
		w.close()
		var err error
		if w.dirRoot, err = w.root.OpenRoot(path.Clean(d)); err != nil {
			return err
		}
		w.dir = d
	}
	return w.dirRoot.WriteFile(name, data, 0o666)
}

// close closes the folder open, if any.
func (w *folderWriter) close() {
	if w.dirRoot != nil {
		w.dirRoot.Close()
		w.dirRoot = nil
	}
}

// prepare checks that out is empty, or clears what an earlier run wrote
// there when forced.
func prepare(root *os.Root, out string, o WriteOptions) error {
	f, err := root.Open(".")
	if err != nil {
		return err
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return nil
	}
	if !o.Force {
		return fmt.Errorf("%s is not empty; choose an empty folder or use -force", out)
	}
	data, err := root.ReadFile(ManifestName)
	if errors.Is(err, fs.ErrNotExist) {
		if o.Warn != nil {
			fmt.Fprintf(o.Warn, "seggen: %s holds no %s; writing over it without removing anything\n", out, ManifestName)
		}
		return nil
	}
	if err != nil {
		return err
	}
	var old Manifest
	if err := json.Unmarshal(data, &old); err != nil || old.Generator != "seggen" || (old.Root != "docs" && old.Root != "dense") {
		return fmt.Errorf("%s: %s is not a seggen manifest; refusing to remove anything", out, ManifestName)
	}
	if err := root.RemoveAll(old.Root); err != nil {
		return err
	}
	for _, d := range old.Sources {
		if !sourceTops[d] {
			return fmt.Errorf("%s: %s names source folder %q, which seggen never writes; refusing to remove it", out, ManifestName, d)
		}
		if err := root.RemoveAll(d); err != nil {
			return err
		}
	}
	return root.Remove(ManifestName)
}

func writeManifest(root *os.Root, m *Manifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return root.WriteFile(ManifestName, append(data, '\n'), 0o666)
}

// writeSources writes every file an implementation's :source: names: a
// few lines of Go each, different per path, so that implementations have
// real bytes to hash (docs/revisions.md).
func writeSources(t *Tree, root *os.Root, m *Manifest) error {
	files := map[string]bool{}
	for i := range t.impls {
		_, src := t.implSources(int32(i))
		for _, p := range src {
			files[p] = true
		}
	}
	tops := map[string]bool{}
	for _, p := range slices.Sorted(maps.Keys(files)) {
		if err := root.MkdirAll(path.Dir(p), 0o777); err != nil {
			return err
		}
		pkg := path.Base(path.Dir(p))
		name := strings.TrimSuffix(path.Base(p), ".go")
		body := fmt.Sprintf("// Code for the generated tree: %s.\npackage %s\n\n// %s is a stand-in for real code.\nfunc %s() int { return %d }\n",
			p, pkg, capital(name), capital(name), len(p))
		if err := root.WriteFile(p, []byte(body), 0o666); err != nil {
			return err
		}
		tops[strings.SplitN(p, "/", 2)[0]] = true
	}
	m.Sources = slices.Sorted(maps.Keys(tops))
	return nil
}
