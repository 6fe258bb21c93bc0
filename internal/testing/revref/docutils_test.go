package revref

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The generator's RST must be what docutils reads too: docutils finds
// exactly the generated nodes (none of the directives in literal blocks
// and comments), each at its line, inside its parent, with its title and
// options. The trees of many seeds go in one folder so that docutils
// starts once.
func TestGeneratedTreesAreDocutils(t *testing.T) {
	python := os.Getenv("SEG_DOCUTILS_PYTHON")
	if python == "" {
		python = "/usr/bin/python3"
	}
	if err := exec.Command(python, "-c", "import docutils").Run(); err != nil {
		if os.Getenv("SEG_REQUIRE_DOCUTILS") == "1" {
			t.Fatalf("%s cannot import docutils: %v", python, err)
		}
		t.Skipf("no docutils (%s: %v); apt-get install python3-docutils", python, err)
	}
	seeds := 120
	if testing.Short() {
		seeds = 20
	}
	root := t.TempDir()
	var want []string
	for seed := range uint64(seeds) {
		tr := Generate(seed)
		dir := fmt.Sprintf("s%03d", seed)
		if err := tr.Write(filepath.Join(root, dir)); err != nil {
			t.Fatal(err)
		}
		for _, n := range tr.Nodes {
			want = append(want, record(dir+"/"+n.File, n))
		}
	}
	cmd := exec.Command(python, "../../../parser/testdata/docutils/dump.py", root)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("dump.py: %v\n%s", err, stderr.String())
	}
	var got []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var d struct {
			File, Directive, ID, Title string
			Line                       int
			ParentID                   string     `json:"parent_id"`
			Options                    [][]string `json:"options"`
			Error                      string
		}
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		if d.File == "" {
			continue // the version line
		}
		if d.Error != "" {
			got = append(got, fmt.Sprintf("%s:%d: docutils rejects the directive: %s", d.File, d.Line, d.Error))
			continue
		}
		var opts []string
		for _, o := range d.Options {
			opts = append(opts, o[0]+"="+o[1])
		}
		slices.Sort(opts)
		got = append(got, fmt.Sprintf("%s:%d %s %s in %q title %q options %q", d.File, d.Line, d.Directive, d.ID, d.ParentID, d.Title, opts))
	}
	slices.Sort(want)
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("nodes (-generated +docutils):\n%s", diff)
	}
}

func record(file string, n *Node) string {
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	var opts []string
	for _, o := range n.Options {
		opts = append(opts, o.Name+"="+norm(o.Value()))
	}
	slices.Sort(opts)
	parent := ""
	if n.Parent != nil {
		parent = n.Parent.ID
	}
	return fmt.Sprintf("%s:%d %s %s in %q title %q options %q", file, n.Line, strings.ToLower(n.Directive), n.ID, parent,
		norm(strings.Join(n.Title, " ")), opts)
}
