package hugepages

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
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

// childReport is what TestPrepareChild printed.
type childReport struct {
	advised, again bool
	before, after  int
}

func childResult(out []byte) (r childReport, ok bool) {
	for _, line := range bytes.Split(out, []byte("\n")) {
		if _, err := fmt.Sscanf(string(bytes.TrimSpace(line)), "advised=%t before=%d after=%d again=%t", &r.advised, &r.before, &r.after, &r.again); err == nil {
			return r, true
		}
	}
	return r, false
}

func vmstat(key string) int {
	b, _ := os.ReadFile("/proc/vmstat")
	for _, line := range bytes.Split(b, []byte("\n")) {
		if f := bytes.Fields(line); len(f) == 2 && string(f[0]) == key {
			n, _ := strconv.Atoi(string(f[1]))
			return n
		}
	}
	return 0
}

// After Prepare, memory the heap grows into is backed by huge pages. The
// check runs in a new process, as seg calls Prepare: first, on an empty
// heap.
func TestPrepare(t *testing.T) {
	if !madviseMode() || strictOvercommit() {
		t.Skip("transparent huge pages are not in madvise mode here")
	}
	fellBack := vmstat("thp_fault_fallback")
	cmd := exec.Command(os.Args[0], "-test.run=^TestPrepareChild$", "-test.v")
	cmd.Env = append(os.Environ(), "SEG_HUGEPAGES_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	r, ok := childResult(out)
	if !ok {
		t.Fatalf("child said nothing:\n%s", out)
	}
	before, after := r.before, r.after
	t.Logf("AnonHugePages %d kB before, %d kB after touching 64 MB", before, after)
	if !r.advised {
		t.Fatalf("Prepare did not advise:\n%s", out)
	}
	if r.again {
		t.Errorf("a second Prepare in one process advised again")
	}
	if after <= before {
		if vmstat("thp_fault_fallback") > fellBack {
			t.Skip("the kernel had no free huge page to give (thp_fault_fallback grew)")
		}
		t.Errorf("no huge pages: %d kB before, %d kB after\n%s", before, after, out)
	}
}

// TestPrepareChild is TestPrepare's new process (and
// TestPrepareUnderLimits'): Prepare on an empty heap, as seg calls it,
// then 64 MB of heap touched.
func TestPrepareChild(t *testing.T) {
	if os.Getenv("SEG_HUGEPAGES_CHILD") != "1" {
		t.Skip("run by TestPrepare")
	}
	size := int64(256 << 20)
	if s, err := strconv.ParseInt(os.Getenv("SEG_HUGEPAGES_CHILD_SIZE"), 10, 64); err == nil {
		size = s
	}
	before := anonHuge(t)
	advised := Prepare(size)
	again := Prepare(size)
	var keep [][]byte
	for range 64 {
		b := make([]byte, 1<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		keep = append(keep, b)
	}
	fmt.Printf("advised=%t before=%d after=%d again=%t\n", advised, before, anonHuge(t), again)
	runtime.KeepAlive(keep)
}

func TestPrepareOff(t *testing.T) {
	t.Setenv("SEG_HUGEPAGES", "off")
	if Prepare(64 << 20) {
		t.Error("SEG_HUGEPAGES=off advised")
	}
}
