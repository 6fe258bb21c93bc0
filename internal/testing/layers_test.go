package testing_test

import (
	"maps"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/seg-trace/seg/"

// segImports maps every package of the module (as go list builds it, test
// files aside) to the module's packages it imports, by path relative to
// the module.
func segImports(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}: {{join .Imports " "}}`, module+"...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, ": ")
		var own []string
		for _, d := range strings.Fields(deps) {
			if strings.HasPrefix(d, module) {
				own = append(own, strings.TrimPrefix(d, module))
			}
		}
		imports[strings.TrimPrefix(pkg, module)] = own
	}
	return imports
}

var floorRow = regexp.MustCompile("^\\| (\\d+) \\| (.*) \\|$")

// documentedFloors reads the floors table of docs/structure.md.
func documentedFloors(t *testing.T) map[string]int {
	t.Helper()
	data, err := os.ReadFile("../../docs/structure.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Floors\n")
	if !ok {
		t.Fatal("docs/structure.md has no section \"Floors\"")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	floors := map[string]int{}
	for _, line := range strings.Split(section, "\n") {
		m := floorRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		for _, p := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(m[2], -1) {
			if was, dup := floors[p[1]]; dup {
				t.Errorf("docs/structure.md puts %s on floors %d and %d", p[1], was, n)
			}
			floors[p[1]] = n
		}
	}
	if len(floors) == 0 {
		t.Fatal("docs/structure.md's floors table lists no package")
	}
	return floors
}

// The layers docs/structure.md lists are the code's: every package is on
// the floor just above the highest it imports (floor 1 imports none of
// seg's packages), so a package never imports one on its own floor or a
// higher one, and an import that lifts a package, a new package or a
// removed one fails here until the page says so.
func TestLayersAreDocumented(t *testing.T) {
	imports := segImports(t)
	floors := documentedFloors(t)
	for _, pkg := range slices.Sorted(maps.Keys(imports)) {
		floor, ok := floors[pkg]
		if !ok {
			t.Errorf("%s is on no floor of docs/structure.md", pkg)
			continue
		}
		want := 1
		for _, dep := range imports[pkg] {
			if floors[dep] >= floor {
				t.Errorf("%s (floor %d) imports %s (floor %d): a package imports only packages on lower floors", pkg, floor, dep, floors[dep])
			}
			want = max(want, floors[dep]+1)
		}
		if want != floor {
			t.Errorf("docs/structure.md puts %s on floor %d; its imports put it on floor %d", pkg, floor, want)
		}
	}
	for pkg := range floors {
		if _, ok := imports[pkg]; !ok {
			t.Errorf("docs/structure.md lists %s, which is no package of the module", pkg)
		}
	}
}

// folder is the folder a package's floor is read in: its top folder, or
// under internal/ and bench/ the folder below it (internal/testing holds
// the test-only helpers as one).
func folder(pkg string) string {
	segs := strings.Split(pkg, "/")
	switch {
	case len(segs) > 1 && segs[0] == "internal" && segs[1] == "testing":
		return "internal/testing"
	case len(segs) > 1 && (segs[0] == "internal" || segs[0] == "bench"):
		return segs[0] + "/" + segs[1]
	}
	return segs[0]
}

// No two folders import each other, through any number of others: a
// folder's packages sit below or above another folder's, never on both
// sides of them (the sphinx-needs post-processing under needs/ imported
// the parser, which imports needs).
func TestFoldersDoNotImportEachOther(t *testing.T) {
	imports := segImports(t)
	edges := map[string]map[string]string{} // folder -> folder -> one import that makes the edge
	for pkg, deps := range imports {
		for _, dep := range deps {
			if from, to := folder(pkg), folder(dep); from != to {
				if edges[from] == nil {
					edges[from] = map[string]string{}
				}
				if edges[from][to] == "" || pkg+" -> "+dep < edges[from][to] {
					edges[from][to] = pkg + " -> " + dep
				}
			}
		}
	}
	reaches := func(from, to string) bool {
		seen := map[string]bool{}
		stack := []string{from}
		for len(stack) > 0 {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if f == to {
				return true
			}
			if !seen[f] {
				seen[f] = true
				for g := range edges[f] {
					stack = append(stack, g)
				}
			}
		}
		return false
	}
	for _, from := range slices.Sorted(maps.Keys(edges)) {
		for _, to := range slices.Sorted(maps.Keys(edges[from])) {
			if reaches(to, from) {
				t.Errorf("folder %s imports %s (%s), which reaches back to %s", from, to, edges[from][to], from)
			}
		}
	}
}
