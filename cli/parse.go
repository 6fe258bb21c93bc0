package cli

import (
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/seg-trace/seg/cache"
	"github.com/seg-trace/seg/config"
	"github.com/seg-trace/seg/parser"
)

// lastCacheStats is what the parse cache did in the latest parseTree of
// this process (tests read it; the zero value when the cache was off).
var (
	lastCacheStats   cache.Stats
	lastCacheStatsMu sync.Mutex
)

func setCacheStats(s cache.Stats) {
	lastCacheStatsMu.Lock()
	lastCacheStats = s
	lastCacheStatsMu.Unlock()
}

// parseTree reads every file of the tree, through the parse cache unless
// --no-cache is given or the cache is off (SEG_CACHE_DIR=off, no cache
// folder, a binary that cannot be identified). Both ways give the same
// files (docs/performance.md, "The parse cache").
func parseTree(root string, cfg *config.Config, o *options) ([]*parser.File, error) {
	if c := openCache(cfg, o); c != nil {
		files, stats, err := c.ParseTree(root, cfg.Parser)
		setCacheStats(stats)
		return files, err
	}
	setCacheStats(cache.Stats{})
	return parser.ParseTree(root, cfg.Parser)
}

// openCache is the cache this run may use, or nil.
func openCache(cfg *config.Config, o *options) *cache.Cache {
	if o.noCache {
		return nil
	}
	base, ok := cache.BaseDir()
	if !ok {
		return nil
	}
	return cache.Open(base, Version, cfg.Parser)
}

// memo is the stored result of one seg check run (cache/result.go): the
// tree's scan and the key of this run's report. A run with a memo reads
// the tree once to hash it; when a report is stored under the key, that
// is the run's whole output.
type memo struct {
	c    *cache.Cache
	scan *cache.Scan
	key  [32]byte
}

// memo scans the tree when this run's report may be stored: the cache is
// on, and no test results files are read (they are not in the tree's
// hash, and a CI run reads new ones every time). parts are what the report
// depends on besides the tree, the configuration, the evaluation date and
// the working folder, which memo adds.
func (in *input) memo(parts ...string) *memo {
	if len(in.o.results) > 0 || len(in.cfg.Results) > 0 {
		return nil
	}
	c := openCache(in.cfg, in.o)
	if c == nil {
		return nil
	}
	scan, err := c.Scan(in.root, in.cfg.Parser)
	if err != nil || scan == nil {
		// A tree that cannot be listed is reported by the parse; a tree
		// that overlaps the cache folder is read without the cache.
		return nil
	}
	wd, _ := os.Getwd()
	abs, _ := filepath.Abs(in.root)
	parts = append(parts,
		"wd", wd, "root", abs,
		"at", in.o.evaluationDate(now).Format(time.DateOnly),
		"config", in.cfg.File, string(in.cfg.Raw),
		"needs", in.cfg.NeedsFile, string(in.cfg.NeedsRaw))
	return &memo{c: c, scan: scan, key: c.ResultKey(scan, parts...)}
}

// load returns the stored exit code and report.
func (m *memo) load() (code int, report []byte, ok bool) {
	code, report, ok = m.c.LoadResult(m.key)
	if !ok || code > exitFailed {
		return 0, nil, false
	}
	setCacheStats(m.c.Stats(0))
	return code, report, true
}

// run parses the scanned tree through the parse cache and evaluates it.
func (m *memo) run(in *input) (*session, error) {
	files, stats := m.c.Parse(m.scan)
	setCacheStats(stats)
	return in.runParsed(files, nil)
}

// writer returns w and, with a memo, a copy of what is written to w into
// this run's result entry, which the caller commits with its exit code.
func (m *memo) writer(w io.Writer) (io.Writer, *cache.ResultWriter) {
	if m == nil {
		return w, nil
	}
	rw := m.c.NewResult(m.scan, m.key)
	return io.MultiWriter(w, rw), rw
}
