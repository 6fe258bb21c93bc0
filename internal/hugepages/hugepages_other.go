//go:build !linux

package hugepages

// Prepare does nothing outside Linux.
func Prepare(size int64) bool { return false }
