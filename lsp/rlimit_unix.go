//go:build unix

package lsp

import "syscall"

// memoryRlimit is the lower of the process's address-space and data
// limits, 0 when it has neither (a limit of 2^62 bytes or more, infinity
// included, is none).
func memoryRlimit() int64 {
	var least uint64
	for _, res := range []int{syscall.RLIMIT_AS, syscall.RLIMIT_DATA} {
		var r syscall.Rlimit
		if syscall.Getrlimit(res, &r) == nil && uint64(r.Cur) < 1<<62 && (least == 0 || uint64(r.Cur) < least) {
			least = uint64(r.Cur)
		}
	}
	return int64(least)
}
