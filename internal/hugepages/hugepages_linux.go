package hugepages

import (
	"bytes"
	"math"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"unsafe"
)

const madvHugepage = 14 // MADV_HUGEPAGE

// Prepare maps up to size bytes of Go heap, advises the kernel to back
// them with transparent huge pages, and frees them again: the heap the run
// then grows into is faulted in 2 MB at a time instead of 4 KB. It does
// nothing when the kernel would not honour the advice or already uses huge
// pages everywhere, when it refuses to overcommit (the mapping could fail),
// or when SEG_HUGEPAGES=off. The size is capped at a quarter of the
// machine's memory. It reports whether it advised.
func Prepare(size int64) bool {
	if os.Getenv("SEG_HUGEPAGES") == "off" || !madviseMode() || strictOvercommit() {
		return false
	}
	if total := memTotal(); total > 0 {
		size = min(size, total/4)
	}
	// A 32-bit address space has no room for a large heap to prepare.
	size = min(size, int64(math.MaxInt/4))
	if size < 4<<20 {
		return false
	}
	// Fresh memory from the kernel is zero, so this neither zeroes nor
	// touches a page: it only maps the heap arenas.
	big := make([]byte, int(size))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(big)))
	start := p &^ (2<<20 - 1)
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, start, p+uintptr(len(big))-start, madvHugepage)
	big = nil
	runtime.GC()
	return errno == 0
}

// madviseMode reports whether transparent huge pages are used where a
// program asks for them, and only there.
func madviseMode() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && bytes.Contains(b, []byte("[madvise]"))
}

func strictOvercommit() bool {
	b, err := os.ReadFile("/proc/sys/vm/overcommit_memory")
	b = bytes.TrimSpace(b)
	return err != nil || len(b) == 0 || b[0] == '2'
}

// memTotal is the machine's memory in bytes, or 0.
func memTotal() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if f := bytes.Fields(line); len(f) >= 2 && string(f[0]) == "MemTotal:" {
			kb, _ := strconv.ParseInt(string(f[1]), 10, 64)
			return kb << 10
		}
	}
	return 0
}
