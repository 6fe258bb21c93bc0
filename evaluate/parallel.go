package evaluate

import "github.com/seg-trace/seg/internal/chunks"

// parallelChunk is the least work worth a goroutine (a variable so the
// tests can compare an evaluation on every core with one on one).
var parallelChunk = 2048

func parallel(n int, f func(lo, hi int)) { chunks.Run(n, parallelChunk, f) }
