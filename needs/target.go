package needs

import (
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/seg-trace/seg/internal/cfgfile"
	"github.com/seg-trace/seg/internal/lazyre"
)

// Which sphinx-needs a project targets decides how its needs.json is
// written: 8.2 and later write each link list sorted, every entry once.
// seg.toml's [needs] sphinx_needs = "8.2" says it; without it, seg looks
// for the version the project pins in the usual files of its root and its
// source folder (requirements files, pyproject.toml): the lowest version
// the pin allows (sphinx-needs==8.2.0, >=8.2, ~=8.3).

// pinFiles are where a project pins its documentation's Python packages.
var pinFiles = []string{"requirements.txt", "docs/requirements.txt", "doc/requirements.txt", "requirements-docs.txt",
	"docs-requirements.txt", "pyproject.toml"}

// pinRx is a pin of sphinx-needs with a lower bound.
var pinRx = lazyre.New(`(?i)sphinx[-_.]needs(?:\[[^\]]*\])?\s*(?:==|>=|~=|===)\s*v?(\d+)(?:\.(\d+))?`)

// targetsSortedLinks reports whether the project targets sphinx-needs 8.2
// or later: setting ("MAJOR.MINOR", nil when seg.toml does not say), else
// the first pin found under root or srcdir.
func targetsSortedLinks(setting *string, root, srcdir string) bool {
	if setting != nil {
		major, minor, ok := version(*setting)
		return ok && atLeast82(major, minor)
	}
	for _, dir := range []string{root, srcdir} {
		for _, f := range pinFiles {
			data, err := cfgfile.Read(filepath.Join(dir, filepath.FromSlash(f)))
			if err != nil {
				continue
			}
			if m := pinRx.FindSubmatch(data); m != nil {
				major, _ := strconv.Atoi(string(m[1]))
				minor, _ := strconv.Atoi(string(m[2]))
				return atLeast82(major, minor)
			}
		}
	}
	return false
}

func version(s string) (major, minor int, ok bool) {
	m := regexp.MustCompile(`^\s*(\d+)(?:\.(\d+))?`).FindStringSubmatch(s)
	if m == nil {
		return 0, 0, false
	}
	major, _ = strconv.Atoi(m[1])
	minor, _ = strconv.Atoi(m[2])
	return major, minor, true
}

func atLeast82(major, minor int) bool { return major > 8 || major == 8 && minor >= 2 }
