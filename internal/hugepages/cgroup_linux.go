package hugepages

import (
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// cgroupLimit is the smallest memory limit set on the process's cgroup or
// any cgroup above it, in bytes, or 0 when there is none (or it cannot be
// found). fsys is the file system root ("/"). Both cgroup versions are
// read: v2's memory.max and v1's memory.limit_in_bytes, in the hierarchy
// mounted where /proc/self/mountinfo says, at the path /proc/self/cgroup
// gives.
func cgroupLimit(fsys fs.FS) int64 {
	cg, err := fs.ReadFile(fsys, "proc/self/cgroup")
	if err != nil {
		return 0
	}
	mi, err := fs.ReadFile(fsys, "proc/self/mountinfo")
	if err != nil {
		return 0
	}
	mounts := cgroupMounts(string(mi))
	var limit int64
	for _, line := range strings.Split(string(cg), "\n") {
		// hierarchy-ID:controllers:path; v2 is "0::path".
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		var file string
		var m *mount
		switch {
		case f[0] == "0" && f[1] == "":
			file, m = "memory.max", mounts.v2
		case hasWord(f[1], "memory"):
			file, m = "memory.limit_in_bytes", mounts.v1
		default:
			continue
		}
		if m == nil {
			continue
		}
		rel, ok := strings.CutPrefix(f[2], m.root)
		if !ok || rel != "" && rel[0] != '/' {
			// The process's cgroup is outside the mounted part of
			// the hierarchy (another namespace's view): unknown.
			continue
		}
		// From the process's own cgroup up to the mount's root: a
		// limit on any of them applies.
		dir := path.Join(m.point, rel)
		for {
			if n := readLimit(fsys, path.Join(dir, file)); n > 0 && (limit == 0 || n < limit) {
				limit = n
			}
			if dir == m.point || dir == "/" || dir == "." {
				break
			}
			dir = path.Dir(dir)
		}
	}
	return limit
}

// readLimit reads a memory limit file: a number of bytes, or "max" (v2)
// or a number near 2^63 (v1) for none, which gives 0.
func readLimit(fsys fs.FS, name string) int64 {
	b, err := fs.ReadFile(fsys, strings.TrimPrefix(name, "/"))
	if err != nil {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || n <= 0 || n >= 1<<62 {
		return 0
	}
	return n
}

// mount is where a cgroup hierarchy is mounted: root is the part of the
// hierarchy the mount shows, point where it is (a slash path).
type mount struct{ root, point string }

// cgroupMounts finds the cgroup v2 mount and the v1 mount of the memory
// controller in the text of /proc/self/mountinfo.
func cgroupMounts(mountinfo string) (m struct{ v1, v2 *mount }) {
	for _, line := range strings.Split(mountinfo, "\n") {
		// ID parent major:minor root point options [optional...] - type source super-options
		f := strings.Fields(line)
		sep := -1
		for i := 6; i < len(f); i++ {
			if f[i] == "-" {
				sep = i
				break
			}
		}
		if sep < 0 || sep+1 >= len(f) {
			continue
		}
		mt := &mount{root: unescape(f[3]), point: unescape(f[4])}
		if mt.root == "/" {
			mt.root = ""
		}
		switch fstype := f[sep+1]; {
		case fstype == "cgroup2" && m.v2 == nil:
			m.v2 = mt
		case fstype == "cgroup" && m.v1 == nil && sep+3 < len(f) && hasWord(f[sep+3], "memory"):
			m.v1 = mt
		}
	}
	return m
}

// hasWord reports whether the comma-separated list holds w.
func hasWord(list, w string) bool {
	for _, x := range strings.Split(list, ",") {
		if x == w {
			return true
		}
	}
	return false
}

// unescape undoes mountinfo's octal escapes (\040 for a space and so on).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
