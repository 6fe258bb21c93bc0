package lsp

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// The language server's memory policy, in one place: a lazy collector
// under a limit while the tree is read (LazyStartUp, called by seg lsp
// before Serve), then a limit sized to the live heap while editing
// (server.limitMemory).

// memoryCeiling is the most the server lets itself use, both while it
// reads its tree and once it edits (unless the live heap needs more), so
// start-up peaks no higher than editing does. The resident set stays
// some 20 MB above it (the binary, what the runtime does not count): a
// tree of 61,105 requirements, whose live heap is about 400 MB, runs
// under 700 MB.
const memoryCeiling = 640 << 20

// editLimit is the memory limit the server edits under, given the live
// heap once the tree is read and the configured limit (0 for none):
// three times the live heap, at least 64 MB, at most memoryCeiling, or
// the configured one; and never under one and a half times the live
// heap. An edit that adds or renames an ID builds a second graph and
// evaluation next to the first, about a third of the live heap; a limit
// of twice the live heap (before 2026-12) let a large tree's server
// reach 950 MB where it needed 550, and under one and a half times it
// the collector would run back to back while such an edit is analysed.
func editLimit(live, configured int64) int64 {
	limit := min(max(3*live, 64<<20), memoryCeiling)
	if configured > 0 {
		limit = configured
	}
	return max(limit, live+live/2)
}

// LazyStartUp makes the collector lazy while seg lsp reads its tree.
// A cold start allocates about twice the live heap it ends with (the
// parse's garbage, then the graph's); with the default GOGC the
// collector runs whenever the heap has doubled since the last run, from
// 4 MB on (22 times on the 50,000-requirement tree), marking the growing
// tree each time: about a fifth of the start-up's CPU. With no GOGC and a memory limit instead, it runs only when the
// limit nears, once or twice. Once the tree is read, the server sets the
// collector as it wants for editing (it forces a collection first).
//
// GOGC or GOMEMLIMIT in the environment are the user's choice and left
// alone. The limit is at most half an address-space or data limit on the
// process (ulimit -v, -d), so that seg lsp does not fail under a limit it
// ran under before. A tree whose live heap passes three quarters of the
// limit before the server takes over would make the collector run back
// to back; collection goes back to the default then (watchStartUp).
func LazyStartUp() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	limit := int64(memoryCeiling)
	if r := memoryRlimit(); r > 0 {
		limit = min(limit, r/2)
	}
	debug.SetMemoryLimit(limit)
	debug.SetGCPercent(-1)
	watchStartUp(limit)
}

// startUpSamples are what watchStartUp reads after each collection.
var startUpSamples = []metrics.Sample{
	{Name: "/gc/cycles/forced:gc-cycles"},
	{Name: "/gc/heap/live:bytes"},
}

// watchStartUp looks at the heap after every collection until the first
// forced one (the server's, once the tree is read: from then on the
// collector's settings are the server's), and restores the default
// collector if the live heap needs more room than limit leaves (over
// three quarters of it).
func watchStartUp(limit int64) {
	var mu sync.Mutex // cleanups may run at once
	done := false
	metrics.Read(startUpSamples)
	forced0 := startUpSamples[0].Value.Uint64()
	var arm func()
	arm = func() {
		runtime.AddCleanup(new([2]*int), func(struct{}) {
			mu.Lock()
			defer mu.Unlock()
			if done {
				return
			}
			metrics.Read(startUpSamples)
			switch startUpStep(startUpSamples[0].Value.Uint64()-forced0, startUpSamples[1].Value.Uint64(), limit) {
			case keepWatching:
				arm()
				return
			case backToDefault:
				debug.SetMemoryLimit(math.MaxInt64)
				debug.SetGCPercent(100)
			}
			done = true
		}, struct{}{})
	}
	arm()
}

type startUpAction int

const (
	keepWatching  startUpAction = iota
	stopWatching                // the server has taken over
	backToDefault               // the limit is too tight for this tree
)

// startUpStep decides after a collection, when forced collections have
// run since start-up and live bytes are left.
func startUpStep(forced, live uint64, limit int64) startUpAction {
	switch {
	case forced > 0:
		return stopWatching
	case live > uint64(limit)/4*3:
		return backToDefault
	}
	return keepWatching
}

// releaser is a snapshot that can forget what it worked out about the
// files that are not open.
type releaser interface{ release() }

// release forgets the views of every file that is not open (the text
// read from disk to place diagnostics, the findings): the server calls
// it once a file's diagnostics are made. A snapshot publishes every file
// of the tree with findings at start-up, and each file's diagnostics
// read the files they relate to (a did-you-mean's target, a reason's
// test); kept, their texts were a sixth of the live heap on a
// 61,105-requirement tree. A later request about a file works its view
// out again.
func (s *segSnapshot) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for f := range s.views {
		if _, open := s.open[f]; !open {
			delete(s.views, f)
		}
	}
}

// limitMemoryWhenPublished sets the memory limit (limitMemory) once the
// background publishing of the tree's diagnostics is done: while it
// runs, what it reads of the files (their texts, to place diagnostics)
// is live, and a limit worked out from the live heap then was a tenth
// higher than the tree needs.
func (s *server) limitMemoryWhenPublished() {
	s.mu.Lock()
	for s.background > 0 && !s.closed {
		s.cond.Wait()
	}
	s.mu.Unlock()
	s.limitMemory()
}
