package cli

import (
	"sync"

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
	if !o.noCache {
		if base, ok := cache.BaseDir(); ok {
			if c := cache.Open(base, Version, cfg.Parser); c != nil {
				files, stats, err := c.ParseTree(root, cfg.Parser)
				setCacheStats(stats)
				return files, err
			}
		}
	}
	setCacheStats(cache.Stats{})
	return parser.ParseTree(root, cfg.Parser)
}
