package segtest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Edit changes one file of a tree written as text (path -> content), as
// a writer might between two keystrokes or saves: a line deleted,
// doubled, swapped or shifted, a digit of an ID changed, a state or a
// result flipped, a node added (sometimes refining another, so cycles
// come and go), a file created or deleted, or a source file an
// implementation names rewritten. It returns the path it changed; the
// path is gone from files when the edit deleted it. A live check is held
// to a fresh one over long runs of such edits.
func Edit(r *rand.Rand, files map[string]string) string {
	var paths []string
	for p := range files {
		if strings.HasSuffix(p, ".rst") {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	if len(paths) == 0 || r.IntN(12) == 0 {
		p := fmt.Sprintf("new/doc-%d.rst", r.IntN(1000))
		files[p] += NewNode(r)
		return p
	}
	if _, ok := files["src/a.c"]; ok && r.IntN(15) == 0 {
		// The code an implementation stands for changes: its revision
		// does, and links pinned to it go stale.
		files["src/a.c"] += fmt.Sprintf("int v%d;\n", r.IntN(100))
		return "src/a.c"
	}
	p := paths[r.IntN(len(paths))]
	lines := strings.SplitAfter(files[p], "\n")
	k := r.IntN(len(lines))
	switch r.IntN(9) {
	case 0:
		lines = slices.Delete(lines, k, k+1)
	case 1:
		lines = slices.Insert(lines, k, lines[k])
	case 2:
		m := r.IntN(len(lines))
		lines[k], lines[m] = lines[m], lines[k]
	case 3:
		lines = slices.Insert(lines, 0, "\n")
	case 4, 5:
		// A digit of an ID, a link or a date changes.
		var digits []int
		for i, c := range lines[k] {
			if c >= '0' && c <= '9' {
				digits = append(digits, i)
			}
		}
		if len(digits) > 0 {
			i := digits[r.IntN(len(digits))]
			lines[k] = lines[k][:i] + string(rune('0'+r.IntN(10))) + lines[k][i+1:]
		}
	case 6:
		lines = append(lines, "\n"+NewNode(r))
	case 7:
		if r.IntN(4) == 0 {
			delete(files, p)
			return p
		}
		lines = slices.Insert(lines, k, "\n"+NewNode(r))
	case 8:
		// A state changes, or a result, or a field that link conditions
		// read (ID[asil == "B"]).
		for _, pair := range [][2]string{{"(suspect)", "(retired)"}, {"passed", "failed"}, {"failed", "skipped"}, {"(retired)", ""},
			{":asil: B", ":asil: A"}, {":asil: A", ":asil: B"}, {":status: approved", ":status: draft"}, {":status: draft", ":status: approved"}} {
			if strings.Contains(lines[k], pair[0]) {
				lines[k] = strings.Replace(lines[k], pair[0], pair[1], 1)
				break
			}
		}
	}
	files[p] = strings.Join(lines, "")
	return p
}

// NewNode writes a node with IDs in RandomTree's style, sometimes with
// what the rules of evidence read: a :source: (present or missing), a
// :date:, a :max-age:, :cases: on a test or a waiver, a waiver of a whole
// test.
func NewNode(r *rand.Rand) string {
	switch r.IntN(8) {
	case 0:
		return fmt.Sprintf(".. req:: New\n   :id: R%d\n   :refines: R%d\n\n", r.IntN(14), r.IntN(14))
	case 1:
		s := fmt.Sprintf(".. test:: New\n   :id: T%d\n   :verifies: R%d, R%d (suspect)\n", r.IntN(10), r.IntN(14), r.IntN(14))
		if r.IntN(2) == 0 {
			s += fmt.Sprintf("   :cases: suite.case_%d*\n", r.IntN(4))
		}
		if r.IntN(3) == 0 {
			s += fmt.Sprintf("   :max-age: %d\n", r.IntN(40))
		}
		return s + "\n"
	case 2:
		s := fmt.Sprintf(".. impl:: New\n   :id: I%d\n   :implements: R%d\n", r.IntN(5), r.IntN(14))
		if r.IntN(2) == 0 {
			s += "   :source: " + []string{"src/a.c", "src/missing.c", "src"}[r.IntN(3)] + "\n"
		}
		return s + "\n"
	case 3, 4:
		s := fmt.Sprintf(".. outcome:: New\n   :id: O%d\n   :confirms: T%d\n   :witnesses: I%d\n   :result: %s\n",
			r.IntN(16), r.IntN(10), r.IntN(5), []string{"passed", "failed", "error", "skipped"}[r.IntN(4)])
		if r.IntN(2) == 0 {
			s += fmt.Sprintf("   :date: 2026-%02d-%02d\n", 9+r.IntN(4), 1+r.IntN(30))
		}
		return s + "\n"
	case 5:
		return fmt.Sprintf(".. waiver:: New\n   :id: W%d\n   :excuses: T%d\n   :cases: suite.case_%d*\n   :expires: 2026-12-%02d\n\n",
			r.IntN(8), r.IntN(10), r.IntN(4), 1+r.IntN(30))
	}
	return fmt.Sprintf(".. waiver:: New\n   :id: W%d\n   :excuses: O%d\n   :expires: 2026-11-%02d\n\n", r.IntN(8), r.IntN(16), 27+r.IntN(4))
}

// Evidence adds to a tree written as text what the rules of evidence
// read outside the RST: a seg.toml that takes outcomes from a JUnit file
// (and, half the time, gives every test a maximum age), the JUnit file,
// and the source file implementations name.
func Evidence(r *rand.Rand, files map[string]string) {
	toml := "[[results]]\npath = \"results/*.xml\"\nwitnesses = [\"I0\"]\n"
	if r.IntN(2) == 0 {
		toml += "\n[evidence]\nmax-age-days = 30\n"
	}
	files["seg.toml"] = toml
	var cases strings.Builder
	for i := range 6 {
		fmt.Fprintf(&cases, "    <testcase classname=\"suite\" name=\"case_%d\" time=\"0.1\"", i)
		switch i % 3 {
		case 0:
			cases.WriteString("/>\n")
		case 1:
			cases.WriteString("><failure message=\"boom\"/></testcase>\n")
		case 2:
			cases.WriteString("><skipped/></testcase>\n")
		}
	}
	files["results/run.xml"] = "<?xml version=\"1.0\"?>\n<testsuites>\n  <testsuite name=\"suite\" timestamp=\"2026-11-20T10:00:00\">\n" +
		cases.String() + "  </testsuite>\n</testsuites>\n"
	files["src/a.c"] = "int main(void) { return 0; }\n"
}
