package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Sums remembers the SHA-256 of the source files implementations name
// (docs/revisions.md), by the files' identity: absolute path, size,
// modification time and, where the system has them, device and inode.
// A file whose identity is unchanged since it was hashed is not read
// again: what the parse cache does for the tree's RST by content, this
// does for the files outside it, which a run would otherwise read in full
// every time, a stored report's run included.
//
// As git's index does, a file modified within racyWindow of being hashed
// is not remembered: a write in the same tick of the clock as the hash
// would leave the identity unchanged and the sum wrong.
type Sums struct {
	path  string
	mu    sync.Mutex
	m     map[string]string // identity -> hex SHA-256
	dirty bool
}

// racyWindow is how long after its last modification a file's identity is
// trusted to change with its content.
const racyWindow = 2 * time.Second

// sumsFile holds the remembered sums, one "identity\tsum" a line.
const sumsFile = "source-sums-v1"

// Sums returns the cache's remembered source sums, read from disk on
// first use (a missing or damaged file is an empty memory).
func (c *Cache) Sums() *Sums {
	c.sumsOnce.Do(func() {
		c.sums = &Sums{path: filepath.Join(c.dir, sumsFile), m: map[string]string{}}
		data, err := os.ReadFile(c.sums.path)
		if err != nil {
			return
		}
		for _, line := range bytes.Split(data, []byte{'\n'}) {
			id, sum, ok := bytes.Cut(line, []byte{'\t'})
			if ok && len(sum) == 64 {
				c.sums.m[string(id)] = string(sum)
			}
		}
	})
	return c.sums
}

// Sum is the hex SHA-256 of the file name, remembered or read; ok is false
// when the file cannot be read.
func (s *Sums) Sum(name string) (sum string, ok bool) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return "", false
	}
	st, err := os.Stat(abs)
	if err != nil || !st.Mode().IsRegular() {
		return "", false
	}
	id := abs + "\x00" + fileIdentity(st)
	keep := !strings.ContainsAny(abs, "\t\n") // the file's own separators
	s.mu.Lock()
	sum, ok = s.m[id]
	s.mu.Unlock()
	if ok {
		return sum, true
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return "", false
	}
	h := sha256.Sum256(data)
	sum = hex.EncodeToString(h[:])
	// The identity is taken again after the read: a file written meanwhile
	// is hashed again next time rather than remembered wrongly.
	if st2, err := os.Stat(abs); err == nil && fileIdentity(st2) == fileIdentity(st) && keep && time.Since(st.ModTime()) > racyWindow {
		s.mu.Lock()
		s.m[id] = sum
		s.dirty = true
		s.mu.Unlock()
	}
	return sum, true
}

// Save writes the remembered sums when they changed, keeping those of
// files that still exist. It never fails a run: a sums file that cannot be
// written is only a slower next run.
func (s *Sums) Save() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.dirty {
		return
	}
	var b strings.Builder
	for _, id := range slices.Sorted(maps.Keys(s.m)) {
		path, _, _ := strings.Cut(id, "\x00")
		if _, err := os.Lstat(path); err != nil {
			continue
		}
		fmt.Fprintf(&b, "%s\t%s\n", id, s.m[id])
	}
	dir := filepath.Dir(s.path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	if writeAtomic(dir, s.path, []byte(b.String())) == nil {
		s.dirty = false
	}
}

// fileIdentity is what a file's content is taken to be known by: its size and
// modification time, and the system's own identity of the file.
func fileIdentity(st fs.FileInfo) string {
	b := strconv.AppendInt(make([]byte, 0, 64), st.Size(), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, st.ModTime().UnixNano(), 10)
	b = append(b, ' ')
	return string(append(b, sysIdentity(st)...))
}
