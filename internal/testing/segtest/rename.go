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
// ID does: it adds a "-" to an :id: (which sorts right after the ID it
// is added to, before any longer ID it begins: the ID keeps its place in
// the ID order) or an "x" after its first letter (which sorts after the
// other IDs of that letter: the ID moves over them), takes one away
// again, or makes the first entry of a link option name the ID so
// changed (a link that an earlier or a later rename resolves). Links of other files to a
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
	switch {
	case re == idLine && strings.HasSuffix(id, "-"):
		id = id[:len(id)-1]
	case re == idLine && len(id) > 2 && id[1] == 'x':
		id = id[:1] + id[2:]
	case r.IntN(3) == 0 && len(id) > 1:
		id = id[:1] + "x" + id[1:] // sorts after the IDs of its first letter: it moves
	default:
		id += "-"
	}
	files[path] = text[:l[4]] + id + text[l[5]:]
	return path
}
