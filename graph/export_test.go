package graph

// SetParallelChunk sets the least work worth a goroutine and returns
// what restores it (for the external tests).
func SetParallelChunk(n int) (restore func()) {
	old := parallelChunk
	parallelChunk = n
	return func() { parallelChunk = old }
}
