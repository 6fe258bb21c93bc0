package segtest

import (
	"maps"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
)

var (
	idLine   = regexp.MustCompile(`(?m)^(\s*:id: )(\S+)$`)
	linkLine = regexp.MustCompile(`(?m)^(\s*:(?:refines|verifies|implements|confirms|witnesses|excuses): )(\S+)`)
)

// Rename edits one of the .rst files in files as a writer renaming an
// ID does, so that the ID keeps its place in the ID order (a trailing
// "-" sorts right after the ID it is added to, before any longer ID it
// begins): it adds a "-" to an :id:, takes one away again, or makes the
// first entry of a link option name the ID with a "-" (a link that an
// earlier or a later rename resolves). Links of other files to a
// renamed ID then dangle, or resolve again. Where a file has nothing to
// rename, it is Edit. It returns the path it changed.
func Rename(r *rand.Rand, files map[string]string) string {
	var paths []string
	for _, p := range slices.Sorted(maps.Keys(files)) {
		if strings.HasSuffix(p, ".rst") {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return Edit(r, files)
	}
	path := paths[r.IntN(len(paths))]
	re := idLine
	if r.IntN(3) == 0 {
		re = linkLine
	}
	locs := re.FindAllStringSubmatchIndex(files[path], -1)
	if len(locs) == 0 {
		return Edit(r, files)
	}
	l := locs[r.IntN(len(locs))]
	text := files[path]
	id := text[l[4]:l[5]]
	if strings.HasSuffix(id, "-") && re == idLine {
		id = strings.TrimSuffix(id, "-")
	} else {
		id += "-"
	}
	files[path] = text[:l[4]] + id + text[l[5]:]
	return path
}
