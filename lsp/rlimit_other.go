//go:build !unix

package lsp

// memoryRlimit: no such limits here.
func memoryRlimit() int64 { return 0 }
