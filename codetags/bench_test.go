package codetags_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seg-trace/seg/cache"
	"github.com/seg-trace/seg/codetags"

	"github.com/seg-trace/seg/internal/fileid"
)

// The tree of the scan benchmarks (docs/performance.md, "Code tags"):
// 50,000 source files of about 10 KB (500 MB), in 500 folders, with two
// tags each (100,000 tags, of every built-in syntax), and code that holds
// the scanner's false starts ("->", "@", "req-") on every few lines.
const (
	benchFiles   = 50000
	benchFolders = 500
	benchSize    = 10000
)

var (
	benchOnce sync.Once
	benchRoot string
	benchErr  error
	keep      bool
)

func benchTree(b *testing.B) string {
	b.Helper()
	benchOnce.Do(func() {
		// SEG_CODETAGS_BENCH_DIR keeps the tree between runs (it takes a
		// while to write).
		if d := os.Getenv("SEG_CODETAGS_BENCH_DIR"); d != "" {
			keep = true
			benchRoot = d
			if _, err := os.Stat(filepath.Join(d, "done")); err == nil {
				return
			}
		} else if benchRoot, benchErr = os.MkdirTemp("", "seg-codetags-bench-"); benchErr != nil {
			return
		}
		defer func() {
			if benchErr == nil {
				benchErr = os.WriteFile(filepath.Join(benchRoot, "done"), nil, 0o644)
			}
		}()
		var body strings.Builder
		for body.Len() < benchSize-200 {
			body.WriteString("static int step(struct node *p) { return p->next ? p->value : 0; } /* see @ref */\n")
			body.WriteString("    if (req->len > 0) { count += req->len; } // keep going, mail me@example.org\n")
		}
		filler := body.String()
		tags := []string{"// req-Id: REQ_%d", "# req-traceability: REQ_%d", "// @need-ids: REQ_%d", "// [impl->dsn~req-%d~1]",
			"// lobster-trace: req.r%d", "// @ Step %[1]d, IMPL_%[1]d, impl, [REQ_%[1]d]"}
		old := time.Now().Add(-time.Hour)
		for i := range benchFiles {
			dir := filepath.Join(benchRoot, "src", fmt.Sprintf("m%03d", i%benchFolders))
			if i < benchFolders {
				if benchErr = os.MkdirAll(dir, 0o755); benchErr != nil {
					return
				}
			}
			t1 := fmt.Sprintf(tags[i%len(tags)], 2*i)
			t2 := fmt.Sprintf(tags[(i+1)%len(tags)], 2*i+1)
			text := "// file " + fmt.Sprint(i) + "\n" + t1 + "\n" + filler + t2 + "\n"
			name := filepath.Join(dir, fmt.Sprintf("f%05d.c", i))
			if benchErr = os.WriteFile(name, []byte(text), 0o644); benchErr != nil {
				return
			}
			if benchErr = os.Chtimes(name, old, old); benchErr != nil {
				return
			}
		}
		// Old enough for the cache to trust their identity: the racy
		// window is read on the change time too, which Chtimes moves on.
		time.Sleep(fileid.RacyWindow + 100*time.Millisecond)
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchRoot
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchRoot != "" && !keep {
		os.RemoveAll(benchRoot)
	}
	os.Exit(code)
}

func benchInput(root string) codetags.Input {
	return codetags.Input{Root: root, Settings: codetags.DefaultSettings(),
		Listing: codetags.Listing{Root: root, Patterns: []string{"src/**"}}}
}

func checkResult(b *testing.B, res codetags.Result) {
	n := 0
	for _, f := range res.Files {
		n += len(f.Tags)
	}
	if len(res.Files) != benchFiles || n != 2*benchFiles {
		b.Fatalf("%d files with %d tags, want %d with %d", len(res.Files), n, benchFiles, 2*benchFiles)
	}
}

// BenchmarkScanCold scans the tree with no memory of an earlier scan
// (the files themselves are in the system's page cache, as after a
// checkout and a build).
func BenchmarkScanCold(b *testing.B) {
	root := benchTree(b)
	in := benchInput(root)
	b.SetBytes(benchFiles * benchSize)
	b.ResetTimer()
	for b.Loop() {
		res := codetags.Scan(in)
		if res.Read != benchFiles {
			b.Fatalf("read %d files", res.Read)
		}
		checkResult(b, res)
	}
}

// BenchmarkScanCached scans the tree again through the parse cache's
// memory of the last scan: each file is stat'ed, none is read. Each
// iteration opens the memory anew, as a run does.
func BenchmarkScanCached(b *testing.B) {
	root := benchTree(b)
	c := cache.Open(b.TempDir(), "bench", nil)
	if c == nil {
		b.Skip("no cache for this build")
	}
	in := benchInput(root)
	key := in.Settings.Key()
	warm := c.CodeTags(key)
	in.Store = warm
	codetags.Scan(in)
	warm.Save()
	b.ResetTimer()
	for b.Loop() {
		store := c.CodeTags(key)
		in.Store = store
		res := codetags.Scan(in)
		store.Save()
		if res.Read != 0 {
			b.Fatalf("read %d files", res.Read)
		}
		checkResult(b, res)
	}
}
