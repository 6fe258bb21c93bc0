//go:build !unix

package cli

// memoryRlimit: no such limits here.
func memoryRlimit() int64 { return 0 }
