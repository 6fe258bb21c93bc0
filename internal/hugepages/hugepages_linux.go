package hugepages

import (
	"bytes"
	"math"
	"os"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"unsafe"
)

const (
	madvHugepage = 14 // MADV_HUGEPAGE

	// minSize is the smallest heap worth preparing: below it the
	// collection Prepare runs costs more than the faults it saves.
	minSize = 64 << 20

	// maxHeapBefore is the most heap the process may hold when Prepare
	// is called. Past it the run is under way: the large allocation
	// would partly land on pages already used, which Go clears (touching
	// them all), and the advice comes too late to matter.
	maxHeapBefore = 64 << 20
)

var (
	mu       sync.Mutex
	prepared bool
)

// Prepare maps up to size bytes of Go heap, advises the kernel to back
// them with transparent huge pages, and frees them again: the heap the run
// then grows into is faulted in 2 MB at a time instead of 4 KB. It works
// once per process, on a heap still nearly empty; later calls do nothing.
//
// It stands aside (does nothing) when the kernel would not honour the
// advice or already uses huge pages everywhere, when it refuses to
// overcommit, with SEG_HUGEPAGES=off, and when the mapping would not fit
// comfortably under the process's limits: the size is capped at a quarter
// of the machine's memory and of any cgroup memory limit, and at half of
// what RLIMIT_AS and RLIMIT_DATA still allow; then half as much again as
// the size must map, or nothing is done. Go cannot recover from a heap allocation the
// kernel refuses (the runtime dies with "out of memory"), so every limit
// is checked before the allocation, never after. It reports whether it
// advised.
func Prepare(size int64) bool {
	if os.Getenv("SEG_HUGEPAGES") == "off" {
		return false
	}
	mu.Lock()
	defer mu.Unlock()
	if prepared {
		return false
	}
	prepared = true
	if !madviseMode() || strictOvercommit() {
		return false
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapSys > maxHeapBefore {
		return false
	}
	size = fit(size, limits{
		memTotal: memTotal(),
		cgroup:   cgroupLimit(os.DirFS("/")),
		room:     room(),
	})
	if size == 0 || !canMap(size+size/2) {
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

// limits are what bounds the memory a process may map or use.
type limits struct {
	memTotal int64 // the machine's memory; 0 when unknown
	cgroup   int64 // the smallest memory limit of the process's cgroups; 0 when none
	room     int64 // what RLIMIT_AS and RLIMIT_DATA still allow to map; -1 when neither is set
}

// fit is the size Prepare maps when asked for size under l, or 0 when it
// should stand aside. A quarter of the machine's (or the cgroup's)
// memory keeps the mapping clear of the kernel's overcommit heuristics
// and leaves the run's own memory alone; half of the room left under the
// resource limits leaves the other half for whatever the run maps beside
// its heap (the heap itself grows into the prepared arenas first).
func fit(size int64, l limits) int64 {
	if l.memTotal > 0 {
		size = min(size, l.memTotal/4)
	}
	if l.cgroup > 0 {
		size = min(size, l.cgroup/4)
	}
	if l.room >= 0 {
		size = min(size, l.room/2)
	}
	// A 32-bit address space has no room for a large heap to prepare.
	size = min(size, int64(math.MaxInt/4))
	if size < minSize {
		return 0
	}
	return size
}

// canMap reports whether n bytes of private writable memory can be
// mapped now, by mapping and unmapping them (no page is touched). It
// catches any limit the checks above do not know of.
func canMap(n int64) bool {
	b, err := syscall.Mmap(-1, 0, int(n), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return false
	}
	return syscall.Munmap(b) == nil
}

// room is what this process may still map under RLIMIT_AS (counted
// against its address space, VmSize) and RLIMIT_DATA (its private
// writable memory, VmData, which is where the Go heap lives): the smaller
// of the two, -1 when neither is limited, 0 when a limit is set and the
// usage cannot be read.
func room() int64 {
	var status []byte
	r := int64(-1)
	for _, l := range []struct {
		resource int
		field    string
	}{{syscall.RLIMIT_AS, "VmSize:"}, {syscall.RLIMIT_DATA, "VmData:"}} {
		var lim syscall.Rlimit
		if err := syscall.Getrlimit(l.resource, &lim); err != nil {
			return 0
		}
		if lim.Cur == ^uint64(0) || lim.Cur > math.MaxInt64 {
			continue
		}
		if status == nil {
			var err error
			if status, err = os.ReadFile("/proc/self/status"); err != nil {
				return 0
			}
		}
		used := statusBytes(status, l.field)
		if used < 0 {
			return 0
		}
		left := max(int64(lim.Cur)-used, 0)
		if r < 0 || left < r {
			r = left
		}
	}
	return r
}

// statusBytes reads a "Name:  123 kB" field of /proc/self/status, or -1.
func statusBytes(status []byte, field string) int64 {
	for _, line := range bytes.Split(status, []byte("\n")) {
		if f := bytes.Fields(line); len(f) >= 2 && string(f[0]) == field {
			kb, err := strconv.ParseInt(string(f[1]), 10, 64)
			if err != nil {
				return -1
			}
			return kb << 10
		}
	}
	return -1
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
	return max(statusBytes(b, "MemTotal:"), 0)
}
