package lsp

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestStartUpStep(t *testing.T) {
	const limit = 900 << 20
	for _, c := range []struct {
		forced, live uint64
		want         startUpAction
	}{
		{0, 0, keepWatching},
		{0, 300 << 20, keepWatching},
		{0, 450 << 20, keepWatching},
		{0, 675 << 20, keepWatching},
		{0, 675<<20 + 1, backToDefault}, // over three quarters of the limit
		{1, 800 << 20, stopWatching},    // the server's forced collection: its settings now
		{2, 10 << 20, stopWatching},
	} {
		if got := startUpStep(c.forced, c.live, limit); got != c.want {
			t.Errorf("startUpStep(%d, %d MB) = %d, want %d", c.forced, c.live>>20, got, c.want)
		}
	}
}

// restoreGC puts the collector's settings back as they were when the
// test ends: they are the whole process's.
func restoreGC(t *testing.T) {
	pct := debug.SetGCPercent(100)
	debug.SetGCPercent(pct)
	limit := debug.SetMemoryLimit(-1)
	t.Cleanup(func() {
		debug.SetGCPercent(pct)
		debug.SetMemoryLimit(limit)
	})
}

func TestLazyStartUp(t *testing.T) {
	restoreGC(t)
	t.Run("environment", func(t *testing.T) {
		t.Setenv("GOGC", "150")
		debug.SetGCPercent(150)
		debug.SetMemoryLimit(math.MaxInt64)
		LazyStartUp()
		if pct := debug.SetGCPercent(150); pct != 150 {
			t.Errorf("GOGC=150 in the environment: GC percent %d, want 150 left alone", pct)
		}
		if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
			t.Errorf("GOGC=150 in the environment: memory limit %d, want none", l)
		}
	})
	t.Run("default", func(t *testing.T) {
		t.Setenv("GOGC", "")
		t.Setenv("GOMEMLIMIT", "")
		LazyStartUp()
		if pct := debug.SetGCPercent(-1); pct != -1 {
			t.Errorf("GC percent %d, want -1 (off)", pct)
		}
		want := int64(memoryCeiling)
		if r := memoryRlimit(); r > 0 {
			want = min(want, r/2)
		}
		if l := debug.SetMemoryLimit(-1); l != want {
			t.Errorf("memory limit %d, want %d", l, want)
		}
		runtime.GC() // what the server does once the tree is read: the watch ends
	})
}

// A live heap over half the start-up limit puts the default collector
// back, rather than leave it running back to back under the limit.
func TestStartUpFallsBack(t *testing.T) {
	restoreGC(t)
	const limit = 1 << 20 // far below this test binary's live heap
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(limit)
	watchStartUp(limit)
	var keep [][]byte
	deadline := time.Now().Add(10 * time.Second)
	for debug.SetMemoryLimit(-1) != math.MaxInt64 {
		if time.Now().After(deadline) {
			t.Fatal("the memory limit was not lifted")
		}
		keep = append(keep, make([]byte, 64<<10)) // allocate: the limit makes collections run
		if len(keep) > 64 {
			keep = keep[:0]
		}
		time.Sleep(time.Millisecond)
	}
	if pct := debug.SetGCPercent(100); pct != 100 {
		t.Errorf("GC percent %d after falling back, want 100", pct)
	}
}

// The limit the server edits under: three times the live heap within
// 64 MB and memoryCeiling (or the configured one), and never under one
// and a half times the live heap.
func TestEditLimit(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		live, configured, want int64
	}{
		{1 * mb, 0, 64 * mb},
		{50 * mb, 0, 150 * mb},
		{200 * mb, 0, 600 * mb},
		{300 * mb, 0, memoryCeiling},
		{400 * mb, 0, memoryCeiling}, // a 61,105-requirement tree
		{500 * mb, 0, 750 * mb},      // one and a half times the live heap
		{100 * mb, 200 * mb, 200 * mb},
		{200 * mb, 200 * mb, 300 * mb},
	} {
		if got := editLimit(c.live, c.configured); got != c.want {
			t.Errorf("editLimit(%d MB, %d MB) = %d MB, want %d MB", c.live/mb, c.configured/mb, got/mb, c.want/mb)
		}
	}
}

// The server sets its memory limit once the background publishing of
// the tree's diagnostics is done, not while it runs.
func TestLimitWaitsForPublishing(t *testing.T) {
	restoreGC(t)
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	debug.SetMemoryLimit(math.MaxInt64)
	s := newServer(Config{MemoryLimit: 1 << 40})
	s.background = 1
	done := make(chan struct{})
	go func() {
		s.limitMemoryWhenPublished()
		close(done)
	}()
	time.Sleep(50 * time.Millisecond)
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Fatalf("memory limit %d set while the background publishing runs", l)
	}
	s.mu.Lock()
	s.background--
	s.cond.Broadcast()
	s.mu.Unlock()
	<-done
	if l := debug.SetMemoryLimit(-1); l != 1<<40 {
		t.Errorf("memory limit %d once the publishing is done, want %d", l, int64(1)<<40)
	}
}
