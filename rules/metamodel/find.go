package metamodel

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/cfgfile"
	"github.com/seg-trace/seg/internal/lazyre"
	"github.com/seg-trace/seg/needs"
)

// The codes of a metamodel seg cannot use (docs/codes.md).
var (
	CodeNotFound = diag.NewError("metamodel-not-found", "a tree that loads S-CORE's extensions whose metamodel.yaml seg cannot find: refused")
	CodeBad      = diag.NewError("bad-metamodel", "a metamodel.yaml that is not valid YAML, has a key seg does not know, or a pattern RE2 cannot compile")
)

// moduleDep matches a MODULE.bazel's dependency on S-CORE's docs-as-code.
var moduleDep = lazyre.New(`bazel_dep\s*\(\s*name\s*=\s*["']score_docs_as_code["']`)

// Found is where the metamodel of a tree is, and why seg looked.
type Found struct {
	// Path is the metamodel.yaml on disk, "" when none was found.
	Path string
	// How says which place named it ("seg.toml [needs] metamodel", ...).
	How string
	// Tried are the places looked at, in order, each with what was there.
	Tried []string
	// Wanted: the tree is an S-CORE tree (seg.toml names a metamodel,
	// conf.py loads S-CORE's extensions, or MODULE.bazel depends on
	// score_docs_as_code), so a metamodel must be found.
	Wanted bool
	// ConfPy is the conf.py read, "" when none.
	ConfPy string
	// RequiredInID is conf.py's required_in_id: words a feature part of
	// an ID may be instead of a folder of its document.
	RequiredInID []string
	// Checks is conf.py's score_metamodel_checks: the names of S-CORE's
	// checks to run, nil for all of them; ChecksLine is its line.
	Checks     []string
	ChecksLine int
}

// Wanted reports, without reading conf.py, whether seg.toml or
// MODULE.bazel make the tree an S-CORE tree.
func Wanted(root string, s *needs.Settings) bool {
	return (s != nil && s.Metamodel != nil) || DependsOnDocsAsCode(root)
}

// DependsOnDocsAsCode reports whether the MODULE.bazel at root declares a
// bazel_dep on score_docs_as_code (outside comments): the one test of
// the module for every part of seg that asks whether a tree is S-CORE's.
func DependsOnDocsAsCode(root string) bool {
	data, err := cfgfile.Read(filepath.Join(root, "MODULE.bazel"))
	return err == nil && moduleDep.Match(stripStarlarkComments(data))
}

func stripStarlarkComments(data []byte) []byte {
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if j := strings.Index(l, "#"); j >= 0 {
			lines[i] = l[:j]
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// Find looks for the metamodel of the tree at root, in order: seg.toml's
// [needs] metamodel (relative to the root); conf.py's score_metamodel_yaml
// (relative to conf.py's folder); for a tree whose MODULE.bazel depends on
// score_docs_as_code, the module's copy in Bazel's external folder of the
// usual output bases (BAZEL_OUTPUT_BASE names the one to use); and, in
// S-CORE's docs-as-code repository itself, its own file. confPy is the
// tree's conf.py ("" when none). A metamodel seg.toml names that is not
// there is an error (exit 2), as is one the tree wants and seg cannot find
// (metamodel-not-found, naming every place tried).
func Find(root string, s *needs.Settings, segFile string, segRaw []byte, confPy string) (Found, error) {
	f := Found{ConfPy: confPy}
	if s != nil && s.Metamodel != nil {
		f.Wanted = true
		p := filepath.Join(root, filepath.FromSlash(*s.Metamodel))
		if !isFile(p) {
			return f, &cfgfile.Error{File: segFile, Line: cfgfile.LineInSection(segRaw, "needs", "metamodel"),
				Msg: fmt.Sprintf("%s: [needs] metamodel %q: no such file", CodeNotFound.Name, *s.Metamodel)}
		}
		f.Path, f.How = p, "seg.toml [needs] metamodel"
	} else {
		f.Tried = append(f.Tried, "seg.toml [needs] metamodel (not set)")
	}
	loadsScore := false
	if confPy != "" {
		loadsScore = confLoadsScore(confPy)
		f.Wanted = f.Wanted || loadsScore
		if v, _, known, set, _ := needs.ConfPyValue(confPy, "required_in_id"); known && set {
			f.RequiredInID = strList(v)
		}
		if v, line, known, set, _ := needs.ConfPyValue(confPy, "score_metamodel_checks"); known && set {
			if s, ok := v.(string); ok && strings.TrimSpace(s) != "" {
				for _, c := range strings.Split(s, ",") {
					f.Checks = append(f.Checks, strings.TrimSpace(c))
				}
				f.ChecksLine = line
			}
		}
	}
	if f.Path == "" && confPy != "" {
		rel := relTo(root, confPy)
		p, why := confPath(confPy)
		switch {
		case p != "" && isFile(p):
			f.Path, f.How = p, rel+" score_metamodel_yaml"
		case p != "":
			f.Tried = append(f.Tried, fmt.Sprintf("%s score_metamodel_yaml (%s: no such file)", rel, relTo(root, p)))
		default:
			f.Tried = append(f.Tried, fmt.Sprintf("%s score_metamodel_yaml (%s)", rel, why))
		}
	}
	if DependsOnDocsAsCode(root) {
		f.Wanted = true
		if f.Path == "" {
			for _, base := range outputBases(root) {
				found := false
				for _, name := range []string{"score_docs_as_code+", "score_docs_as_code~"} {
					p := filepath.Join(base, "external", name, "src", "extensions", "score_metamodel", "metamodel.yaml")
					if isFile(p) {
						f.Path, f.How, found = p, "Bazel's external folder ("+base+")", true
						break
					}
				}
				if found {
					break
				}
				f.Tried = append(f.Tried, "Bazel output base "+base+" (no external/score_docs_as_code+ with a metamodel.yaml)")
			}
		}
	}
	if f.Path == "" && loadsScore {
		p := filepath.Join(root, "src", "extensions", "score_metamodel", "metamodel.yaml")
		if isFile(p) {
			f.Path, f.How = p, "the tree's own src/extensions/score_metamodel"
		} else {
			f.Tried = append(f.Tried, "src/extensions/score_metamodel/metamodel.yaml (the extension's own default; not in the tree)")
		}
	}
	if f.Path == "" && f.Wanted {
		file, line := segFile, 0
		if confPy != "" {
			file = confPy
		}
		return f, &cfgfile.Error{File: file, Line: line,
			Msg: fmt.Sprintf("%s: the tree uses S-CORE's metamodel, and seg found none; tried: %s. Set [needs] metamodel = \"PATH\" in seg.toml (relative to the root), or score_metamodel_yaml in conf.py, or build the docs once with Bazel (or set BAZEL_OUTPUT_BASE)",
				CodeNotFound.Name, strings.Join(f.Tried, "; "))}
	}
	return f, nil
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func relTo(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return p
}

func strList(v any) []string {
	var out []string
	switch x := v.(type) {
	case string:
		out = append(out, x)
	case []any:
		for _, it := range x {
			if s, ok := it.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

func confLoadsScore(confPy string) bool {
	v, _, known, _, _ := needs.ConfPyValue(confPy, "extensions")
	if known {
		for _, e := range strList(v) {
			if slices.Contains(needs.ScoreExtensions, e) {
				return true
			}
		}
		return false
	}
	data, err := cfgfile.Read(confPy)
	if err != nil {
		return false
	}
	for _, e := range needs.ScoreExtensions {
		if strings.Contains(string(data), `"`+e+`"`) || strings.Contains(string(data), "'"+e+"'") {
			return true
		}
	}
	return false
}

// fileJoin matches the one computed form of score_metamodel_yaml seg
// reads: a path joined to conf.py's own folder,
// os.path.join(os.path.dirname(__file__), "a", "b") (with or without
// os.path.abspath around __file__), or Path(__file__).parent / "a".
var (
	fileJoin = lazyre.New(`^os\.path\.join\(\s*os\.path\.dirname\(\s*(?:os\.path\.(?:abspath|realpath)\(\s*__file__\s*\)|__file__)\s*\)\s*((?:,\s*(?:"[^"]*"|'[^']*')\s*)+),?\s*\)$`)
	pathDiv  = lazyre.New(`^(?:pathlib\.)?Path\(\s*__file__\s*\)(?:\.resolve\(\))?\.parent((?:\s*/\s*(?:"[^"]*"|'[^']*'))+)$`)
	pyStrLit = lazyre.New(`"([^"]*)"|'([^']*)'`)
)

// confPath is the file conf.py's score_metamodel_yaml names, "" with why
// when it names none seg can tell.
func confPath(confPy string) (string, string) {
	v, line, known, set, why := needs.ConfPyValue(confPy, "score_metamodel_yaml")
	dir := filepath.Dir(confPy)
	switch {
	case !set:
		return "", "not set"
	case known:
		s, ok := v.(string)
		if !ok || s == "" {
			return "", "set, but not to a path"
		}
		if filepath.IsAbs(s) {
			return s, ""
		}
		return filepath.Join(dir, filepath.FromSlash(s)), ""
	}
	data, err := cfgfile.Read(confPy)
	if err != nil {
		return "", err.Error()
	}
	expr := assignedExpr(string(data), line)
	if m := fileJoin.FindStringSubmatch(expr); m != nil {
		return joinLits(dir, m[1]), ""
	}
	if m := pathDiv.FindStringSubmatch(expr); m != nil {
		return joinLits(dir, m[1]), ""
	}
	return "", fmt.Sprintf("line %d: seg cannot tell its value without running Python (%s)", line, why)
}

func joinLits(dir, lits string) string {
	parts := []string{dir}
	for _, m := range pyStrLit.FindAllStringSubmatch(lits, -1) {
		parts = append(parts, m[1]+m[2])
	}
	return filepath.Join(parts...)
}

// assignedExpr is the expression assigned on a line of Python source
// ("name = EXPR"), its continuation lines inside brackets joined.
func assignedExpr(src string, line int) string {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	if line < 1 || line > len(lines) {
		return ""
	}
	text := lines[line-1]
	depth := strings.Count(text, "(") - strings.Count(text, ")")
	for i := line; depth > 0 && i < len(lines); i++ {
		text += " " + strings.TrimSpace(lines[i])
		depth += strings.Count(lines[i], "(") - strings.Count(lines[i], ")")
	}
	_, expr, ok := strings.Cut(text, "=")
	if !ok {
		return ""
	}
	if i := strings.Index(expr, "#"); i >= 0 {
		expr = expr[:i]
	}
	return strings.TrimSpace(expr)
}

// outputBases are the Bazel output bases seg looks in for the tree at
// root: BAZEL_OUTPUT_BASE alone when it is set; else the base the
// convenience links at the root point into (bazel-<name>, bazel-out), then
// Bazel's default, <output user root>/<md5 of the workspace path>, where
// the output user root is ~/.cache/bazel/_bazel_$USER on Linux (also under
// $XDG_CACHE_HOME when that is set) and /private/var/tmp/_bazel_$USER on
// macOS.
func outputBases(root string) []string {
	if b := os.Getenv("BAZEL_OUTPUT_BASE"); b != "" {
		return []string{b}
	}
	var out []string
	add := func(p string) {
		if p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		abs = root
	}
	// bazel-<workspace folder> -> <base>/execroot/_main; bazel-out ->
	// <base>/execroot/_main/bazel-out.
	if t, err := os.Readlink(filepath.Join(abs, "bazel-"+filepath.Base(abs))); err == nil {
		add(filepath.Dir(filepath.Dir(t)))
	}
	if t, err := os.Readlink(filepath.Join(abs, "bazel-out")); err == nil {
		add(filepath.Dir(filepath.Dir(filepath.Dir(t))))
	}
	name := os.Getenv("USER")
	if u, err := user.Current(); err == nil && u.Username != "" {
		name = u.Username
	}
	var roots []string
	if x := os.Getenv("XDG_CACHE_HOME"); x != "" {
		roots = append(roots, filepath.Join(x, "bazel", "_bazel_"+name))
	}
	if home, err := os.UserHomeDir(); err == nil {
		roots = append(roots, filepath.Join(home, ".cache", "bazel", "_bazel_"+name))
	}
	if runtime.GOOS == "darwin" {
		roots = append(roots, "/private/var/tmp/_bazel_"+name)
	}
	paths := []string{abs}
	if r, err := filepath.EvalSymlinks(abs); err == nil && r != abs {
		paths = append(paths, r)
	}
	for _, ur := range roots {
		for _, p := range paths {
			sum := md5.Sum([]byte(p))
			add(filepath.Join(ur, hex.EncodeToString(sum[:])))
		}
	}
	return out
}
