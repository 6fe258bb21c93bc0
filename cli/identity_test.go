package cli

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/seg-trace/seg/bench/gen"
	"github.com/seg-trace/seg/internal/testing/segtest"
)

// TestOutputIdentity runs every command in every format on the example
// trees, a generated tree with planted defects and 50 random trees, and
// compares a hash of each output (and its exit code) with
// testdata/identity.golden. It guards the redesign of the internals:
// restructuring must not change a byte of what users see. A deliberate
// change of output rewrites the file with SEG_UPDATE_IDENTITY=1; with
// SEG_IDENTITY_DUMP=DIR every output is also written there, to diff two
// versions.
func TestOutputIdentity(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	trees := map[string]string{}
	for _, ex := range []string{"brake", "broken", "needs", "stale"} {
		trees["examples/"+ex] = filepath.Join("..", "examples", ex)
	}
	tmp := t.TempDir()
	gt, err := gen.New(gen.Options{N: 300, Seed: 7, Defects: true, DefectRate: 0.02, PerFile: 40, FilesPerDir: 64})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.WriteDir(gt, filepath.Join(tmp, "gen"), gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	trees["gen-300-defects"] = filepath.Join(tmp, "gen")
	for i := range 50 {
		r := rand.New(rand.NewPCG(uint64(i), 99))
		tr := segtest.RandomTree(r)
		dir := filepath.Join(tmp, fmt.Sprintf("random-%02d", i))
		for name, text := range tr.RSTFiles(r, 1+r.IntN(3)) {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		trees[fmt.Sprintf("random-%02d", i)] = dir
	}

	dump := os.Getenv("SEG_IDENTITY_DUMP")
	var got []string
	names := make([]string, 0, len(trees))
	for n := range trees {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		root := trees[name]
		cmds := identityCommands(root)
		for _, args := range cmds {
			var out, errb bytes.Buffer
			full := append(append([]string{}, args...), "--at", "2026-11-29", "--no-cache")
			code := Execute(full, &out, &errb)
			sum := sha256.Sum256(append(out.Bytes(), errb.Bytes()...))
			label := name + " " + strings.Join(args[:len(args)-1], " ")
			got = append(got, fmt.Sprintf("%s exit=%d %s", label, code, hex.EncodeToString(sum[:8])))
			if dump != "" {
				f := filepath.Join(dump, name, strings.ReplaceAll(strings.Join(args[:len(args)-1], "_"), "/", "-"))
				os.MkdirAll(filepath.Dir(f), 0o755)
				os.WriteFile(f, append(append(out.Bytes(), []byte("\n--- stderr ---\n")...), errb.Bytes()...), 0o644)
			}
		}
	}
	golden := filepath.Join("testdata", "identity.golden")
	if os.Getenv("SEG_UPDATE_IDENTITY") != "" {
		if err := os.WriteFile(golden, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(golden)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		i := strings.Index(line, " exit=")
		want[line[:i]] = line
	}
	bad := 0
	for _, g := range got {
		i := strings.Index(g, " exit=")
		if w := want[g[:i]]; w != g {
			bad++
			if bad <= 20 {
				t.Errorf("output changed:\n got %s\nwant %s", g, w)
			}
		}
	}
	if bad > 20 {
		t.Errorf("... %d outputs changed in all", bad)
	}
}

// identityCommands lists the commands run on one tree; the root is the
// last argument of each.
func identityCommands(root string) [][]string {
	var cmds [][]string
	for _, f := range []string{"text", "json", "github", "sarif"} {
		cmds = append(cmds, []string{"check", "--format", f, "--color", "never", root})
	}
	cmds = append(cmds, []string{"check", "--color", "always", root})
	for _, f := range []string{"json", "dot", "mermaid", "needs-json"} {
		cmds = append(cmds, []string{"graph", "--format", f, root})
	}
	for _, f := range []string{"markdown", "csv", "html", "json"} {
		cmds = append(cmds, []string{"matrix", "--format", f, root})
	}
	for _, id := range explainIDs(root) {
		cmds = append(cmds,
			[]string{"explain", id, "--color", "never", root},
			[]string{"explain", id, "--format", "json", root})
	}
	return cmds
}

// explainIDs picks a few IDs of the tree to explain: the first and last
// requirement, and one node of each other kind, found by running seg
// graph.
func explainIDs(root string) []string {
	var out bytes.Buffer
	Execute([]string{"graph", "--format", "json", "--no-cache", "--at", "2026-11-29", root}, &out, &bytes.Buffer{})
	var ids []string
	seen := map[string]bool{}
	last := ""
	for _, line := range strings.Split(out.String(), "\n") {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, `"id": "`); ok {
			last = strings.SplitN(v, `"`, 2)[0]
		}
		if v, ok := strings.CutPrefix(line, `"kind": "`); ok && last != "" {
			kind := strings.SplitN(v, `"`, 2)[0]
			if !seen[kind] {
				seen[kind] = true
				ids = append(ids, last)
			}
			last = ""
		}
	}
	return ids
}
