package check_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/seg-trace/seg/internal/testing/segtest"
)

// A live check that holds its parses compacted (Options.Compact, as the
// language server runs it), through the parse cache and without, is a
// fresh seg check of the same text after every edit.
func TestLiveIsRunCompact(t *testing.T) {
	seeds := 12
	if testing.Short() {
		seeds = 4
	}
	for seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(uint64(seed), 29))
			disk := segtest.RandomTree(r).RSTFiles(r, 1+r.IntN(4))
			segtest.Evidence(r, disk)
			how := liveHow{cached: seed%2 == 1, settled: seed%4 >= 2, compact: true,
				events: rand.New(rand.NewPCG(uint64(seed), 31))}
			liveSession(t, r, disk, 20, how, map[string]bool{})
		})
	}
}
