// Differential test of sphinx-needs trees: seg's parser, configured from
// each tree's ubproject.toml and seg.toml (config.Load), against docutils.
//
// Each folder of testdata/needs is a tree written like a real sphinx-needs
// project; testdata/needs/NAME.jsonl is what docutils (dump.py, told the
// tree's need types with --names and its extra literal directives with
// --literal) finds in it. Files whose name holds "-crlf" are given CR LF
// line ends in a copy of the tree before either side reads it.
//
//   - TestDifferentialNeeds compares every node (file, line, directive,
//     ID, parent), its title and all its options (names and values, white
//     space collapsed) with NAME.jsonl, and the files ParseTree reads with
//     the walk's rules. It needs no docutils.
//   - TestDifferentialNeedsExpectedIsCurrent re-runs dump.py and checks
//     that NAME.jsonl is what docutils says now (skipped without docutils,
//     as the corpus test is). SEG_UPDATE_NEEDS_EXPECTED=1 rewrites the
//     files instead; read the change before checking it in.
package parser_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/config"
	"github.com/seg-trace/seg/parser"
)

const needsRoot = "testdata/needs"

func needsTreeNames(t *testing.T) []string {
	t.Helper()
	ents, err := os.ReadDir(needsRoot)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	if len(out) < 2 {
		t.Fatalf("only %d sphinx-needs trees in %s", len(out), needsRoot)
	}
	return out
}

// needsCopy copies testdata/needs/name to a new folder, "-crlf" files
// with CR LF line ends.
func needsCopy(t *testing.T, name string) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join(needsRoot, name)
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Contains(d.Name(), "-crlf") {
			data = bytes.ReplaceAll(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// dumpArgs are dump.py's --names and --literal for a configuration: what
// it adds to seg's defaults.
func dumpArgs(cfg *parser.Config) []string {
	def := parser.DefaultConfig()
	var names, lit, ins []string
	for d, k := range cfg.Directives {
		if _, ok := def.Directives[d]; ok {
			continue
		}
		if k == parser.Instruction {
			ins = append(ins, d)
		} else {
			names = append(names, d)
		}
	}
	for d, on := range cfg.Literal {
		if on && !def.Literal[d] {
			lit = append(lit, d)
		}
	}
	sort.Strings(names)
	sort.Strings(lit)
	sort.Strings(ins)
	args := []string{"--names", strings.Join(names, ","), "--literal", strings.Join(lit, ",")}
	if len(ins) > 0 {
		args = append(args, "--instructions", strings.Join(ins, ","))
	}
	return args
}

// compareAllOptions compares the title and every option of each node both
// sides found, white space runs collapsed.
func compareAllOptions(file string, recs []dumpRecord, f *parser.File) []string {
	var out []string
	for _, r := range recs {
		if r.Error != "" || r.InvalidEncoding || r.LineTooLong > 0 {
			continue
		}
		var n *parser.Node
		for k := range f.Nodes {
			if line(f, f.Nodes[k].Pos) == r.Line && f.Nodes[k].Directive == r.Directive {
				n = &f.Nodes[k]
				break
			}
		}
		if n == nil {
			continue // compareNodes reports it
		}
		if got := normSpace(n.Title); got != r.Title {
			out = append(out, fmt.Sprintf("%s:%d: title: docutils %q | seg %q", file, r.Line, r.Title, got))
		}
		var got [][2]string
		for _, o := range n.Options {
			got = append(got, [2]string{o.Name, normSpace(o.Value)})
		}
		want := r.Options
		if len(want) == 0 {
			want = nil
		}
		if d := cmp.Diff(want, got); d != "" {
			out = append(out, fmt.Sprintf("%s:%d: options (-docutils +seg):\n%s", file, r.Line, d))
		}
	}
	return out
}

func TestDifferentialNeeds(t *testing.T) {
	for _, name := range needsTreeNames(t) {
		t.Run(name, func(t *testing.T) {
			root := needsCopy(t, name)
			cfg, err := config.Load(root, "")
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Parser.Needs == nil {
				t.Fatal("the tree is no sphinx-needs project")
			}
			data, err := os.ReadFile(filepath.Join(needsRoot, name+".jsonl"))
			if err != nil {
				t.Fatalf("%v (make it: SEG_UPDATE_NEEDS_EXPECTED=1 go test ./parser -run DifferentialNeedsExpected)", err)
			}
			recs, err := readDump(data)
			if err != nil {
				t.Fatal(err)
			}
			want := byFile(recs)
			files, _, err := check.ParseTree(root, cfg)
			if err != nil {
				t.Fatal(err)
			}
			wantFiles, err := rstFiles(root)
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			var dis []string
			nodes := 0
			for _, f := range files {
				paths = append(paths, f.Path)
				dis = append(dis, compareNodes(f.Path, want[f.Path], f)...)
				dis = append(dis, compareAllOptions(f.Path, want[f.Path], f)...)
				nodes += len(f.Nodes)
			}
			if d := cmp.Diff(wantFiles, paths); d != "" {
				t.Errorf("files read (-want +got):\n%s", d)
			}
			for f := range want {
				if f != "" && !slices.Contains(paths, f) {
					t.Errorf("%s.jsonl names %s, which is not in the tree: regenerate it", name, f)
				}
			}
			report(t, "sphinx-needs tree "+name, dis)
			if nodes < 15 {
				t.Errorf("only %d nodes", nodes)
			}
		})
	}
}

func TestDifferentialNeedsExpectedIsCurrent(t *testing.T) {
	py := docutilsPython(t)
	for _, name := range needsTreeNames(t) {
		t.Run(name, func(t *testing.T) {
			root := needsCopy(t, name)
			cfg, err := config.Load(root, "")
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(py, append([]string{dumpScript, root}, dumpArgs(cfg.Parser)...)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			live, err := cmd.Output()
			if err != nil {
				t.Fatalf("dump.py: %v\n%s", err, stderr.String())
			}
			path := filepath.Join(needsRoot, name+".jsonl")
			if os.Getenv("SEG_UPDATE_NEEDS_EXPECTED") == "1" {
				if err := os.WriteFile(path, live, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			checked, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			d := cmp.Diff(strings.Split(string(checked), "\n"), strings.Split(string(live), "\n"))
			if d == "" {
				return
			}
			checkedRecs, _ := readDump(checked)
			liveRecs, _ := readDump(live)
			if was, now := version(checkedRecs), version(liveRecs); was != now && os.Getenv("SEG_REQUIRE_DOCUTILS") != "1" {
				t.Skipf("%s was made with docutils %s, this machine has %s; they differ (-checked in +live):\n%s", path, was, now, d)
			}
			t.Errorf("%s is not what docutils says now (-checked in +live); rerun with SEG_UPDATE_NEEDS_EXPECTED=1 and read the change:\n%s", path, d)
		})
	}
}
