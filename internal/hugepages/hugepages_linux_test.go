package hugepages

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"testing"
)

// anonHuge is the process's anonymous memory in huge pages, in kB.
func anonHuge(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		t.Skip("no /proc/self/smaps_rollup")
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if f := bytes.Fields(line); len(f) >= 2 && string(f[0]) == "AnonHugePages:" {
			n, _ := strconv.Atoi(string(f[1]))
			return n
		}
	}
	return 0
}

func vmstat(t *testing.T, key string) int {
	b, _ := os.ReadFile("/proc/vmstat")
	for _, line := range bytes.Split(b, []byte("\n")) {
		if f := bytes.Fields(line); len(f) == 2 && string(f[0]) == key {
			n, _ := strconv.Atoi(string(f[1]))
			return n
		}
	}
	return 0
}

// After Prepare, memory the heap grows into is backed by huge pages.
func TestPrepare(t *testing.T) {
	if runtime.GOOS != "linux" || !madviseMode() || strictOvercommit() {
		t.Skip("transparent huge pages are not in madvise mode here")
	}
	before, fellBack := anonHuge(t), vmstat(t, "thp_fault_fallback")
	if !Prepare(256 << 20) {
		t.Fatal("Prepare did not advise")
	}
	var keep [][]byte
	for range 64 {
		b := make([]byte, 1<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		keep = append(keep, b)
	}
	after := anonHuge(t)
	t.Logf("AnonHugePages %d kB before, %d kB after touching 64 MB", before, after)
	if after <= before {
		if vmstat(t, "thp_fault_fallback") > fellBack {
			t.Skip("the kernel had no free huge page to give (thp_fault_fallback grew)")
		}
		t.Errorf("no huge pages: %d kB before, %d kB after", before, after)
	}
	runtime.KeepAlive(keep)
}

func TestPrepareOff(t *testing.T) {
	t.Setenv("SEG_HUGEPAGES", "off")
	if Prepare(64 << 20) {
		t.Error("SEG_HUGEPAGES=off advised")
	}
}
