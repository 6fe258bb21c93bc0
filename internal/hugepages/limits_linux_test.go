package hugepages

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

func TestFit(t *testing.T) {
	const G = 1 << 30
	for _, c := range []struct {
		name string
		l    limits
		want int64
	}{
		{"no limits", limits{memTotal: 24 * G, room: -1}, 2 * G},
		{"machine memory unknown", limits{room: -1}, 2 * G},
		{"a quarter of the machine", limits{memTotal: 4 * G, room: -1}, G},
		{"a quarter of the cgroup", limits{memTotal: 24 * G, cgroup: 2 * G, room: -1}, G / 2},
		{"half the room under rlimits", limits{memTotal: 24 * G, room: 3 * G}, 3 * G / 2},
		{"room for less than the minimum", limits{memTotal: 24 * G, room: 100 << 20}, 0},
		{"no room at all", limits{memTotal: 24 * G, room: 0}, 0},
		{"a small cgroup", limits{memTotal: 24 * G, cgroup: 200 << 20, room: -1}, 0},
		{"a small machine", limits{memTotal: 200 << 20, room: -1}, 0},
	} {
		if got := fit(2*G, c.l); got != c.want {
			t.Errorf("%s: fit(2 GB, %+v) = %d, want %d", c.name, c.l, got, c.want)
		}
	}
}

func TestCgroupLimit(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	const v1Mounts = `25 1 0:22 / /sys/fs/cgroup rw - tmpfs tmpfs rw
30 25 0:27 / /sys/fs/cgroup/memory rw,relatime shared:5 - cgroup cgroup rw,memory
31 25 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
32 25 0:29 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
`
	const v2Mounts = "29 1 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"
	for _, c := range []struct {
		name string
		fs   fstest.MapFS
		want int64
	}{
		{"v1, limit on a parent", fstest.MapFS{
			"proc/self/cgroup":                                   file("5:cpu:/\n4:memory:/jobs/j1\n0::/\n"),
			"proc/self/mountinfo":                                file(v1Mounts),
			"sys/fs/cgroup/memory/memory.limit_in_bytes":         file("9223372036854771712\n"),
			"sys/fs/cgroup/memory/jobs/memory.limit_in_bytes":    file("1073741824\n"),
			"sys/fs/cgroup/memory/jobs/j1/memory.limit_in_bytes": file("9223372036854771712\n"),
		}, 1 << 30},
		{"v1, no limit", fstest.MapFS{
			"proc/self/cgroup":    file("4:memory:/jobs/j1\n"),
			"proc/self/mountinfo": file(v1Mounts),
			"sys/fs/cgroup/memory/jobs/j1/memory.limit_in_bytes": file("9223372036854771712\n"),
		}, 0},
		{"v2, the smallest on the path", fstest.MapFS{
			"proc/self/cgroup":                              file("0::/user.slice/app.scope\n"),
			"proc/self/mountinfo":                           file(v2Mounts),
			"sys/fs/cgroup/user.slice/memory.max":           file("2147483648\n"),
			"sys/fs/cgroup/user.slice/app.scope/memory.max": file("536870912\n"),
		}, 512 << 20},
		{"v2, max", fstest.MapFS{
			"proc/self/cgroup":             file("0::/app\n"),
			"proc/self/mountinfo":          file(v2Mounts),
			"sys/fs/cgroup/app/memory.max": file("max\n"),
		}, 0},
		{"v2 in a cgroup namespace", fstest.MapFS{
			"proc/self/cgroup":         file("0::/\n"),
			"proc/self/mountinfo":      file("40 30 0:26 / /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n"),
			"sys/fs/cgroup/memory.max": file("805306368\n"),
		}, 768 << 20},
		{"v2, a mount that shows part of the hierarchy", fstest.MapFS{
			"proc/self/cgroup":            file("0::/kubepods/pod1/c1\n"),
			"proc/self/mountinfo":         file("40 30 0:26 /kubepods/pod1 /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n"),
			"sys/fs/cgroup/memory.max":    file("1073741824\n"),
			"sys/fs/cgroup/c1/memory.max": file("max\n"),
		}, 1 << 30},
		{"a mount point with a space", fstest.MapFS{
			"proc/self/cgroup":        file("0::/a\n"),
			"proc/self/mountinfo":     file(`29 1 0:26 / /mnt/cg\040two rw - cgroup2 cgroup2 rw` + "\n"),
			"mnt/cg two/a/memory.max": file("104857600\n"),
		}, 100 << 20},
		{"the cgroup outside the mount", fstest.MapFS{
			"proc/self/cgroup":         file("0::/other\n"),
			"proc/self/mountinfo":      file("40 30 0:26 /kubepods /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n"),
			"sys/fs/cgroup/memory.max": file("1073741824\n"),
		}, 0},
		{"no cgroup files", fstest.MapFS{}, 0},
		{"garbage", fstest.MapFS{
			"proc/self/cgroup":    file("::::\nmemory\n0::\n"),
			"proc/self/mountinfo": file("- - -\n1 2 3 4 5 6 -\n1 2 3 / /x rw - cgroup2\n"),
		}, 0},
	} {
		if got := cgroupLimit(c.fs); got != c.want {
			t.Errorf("%s: cgroupLimit = %d, want %d", c.name, got, c.want)
		}
	}
}

// Under an address-space or data limit anywhere from 0.5 to 3 GB, Prepare
// never makes a process fail: the child (Prepare(2 GB) on an empty heap,
// then 64 MB of heap) ends as it does with SEG_HUGEPAGES=off. And where
// the limit leaves room, it still advises.
func TestPrepareUnderLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 28 processes")
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("no prlimit (util-linux)")
	}
	child := func(limit string, off bool) (childReport, []byte, error) {
		cmd := exec.Command(prlimit, limit, os.Args[0], "-test.run=^TestPrepareChild$", "-test.v")
		cmd.Env = append(os.Environ(), "SEG_HUGEPAGES_CHILD=1", "SEG_HUGEPAGES_CHILD_SIZE="+strconv.FormatInt(2<<30, 10))
		if off {
			cmd.Env = append(cmd.Env, "SEG_HUGEPAGES=off")
		}
		out, err := cmd.CombinedOutput()
		r, _ := childResult(out)
		return r, out, err
	}
	usable := madviseMode() && !strictOvercommit()
	for _, which := range []string{"--as", "--data"} {
		for _, gb := range []float64{0.5, 0.8, 1, 1.5, 2, 2.5, 3} {
			limit := fmt.Sprintf("%s=%d", which, int64(gb*(1<<30)))
			t.Run(fmt.Sprintf("%s=%.1fGB", which, gb), func(t *testing.T) {
				t.Parallel()
				_, offOut, offErr := child(limit, true)
				if offErr != nil {
					// The Go runtime itself cannot start under this limit.
					first, _, _ := strings.Cut(string(offOut), "\n")
					t.Skipf("fails without huge pages too: %v: %s", offErr, first)
				}
				r, out, err := child(limit, false)
				if err != nil {
					t.Fatalf("Prepare made the process fail: %v\n%s\nwithout huge pages:\n%s", err, out, offOut)
				}
				t.Logf("advised=%t", r.advised)
				// 3 GB of data leaves well over twice the minimum.
				if usable && which == "--data" && gb == 3 && !r.advised {
					t.Errorf("Prepare stood aside although the limit leaves room\n%s", out)
				}
			})
		}
	}
}
