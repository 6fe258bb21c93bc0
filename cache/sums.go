package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/seg-trace/seg/internal/fileid"
	"github.com/seg-trace/seg/internal/safefile"
)

// Sums remembers the SHA-256 of the source files implementations name
// (docs/revisions.md), by the files' identity: absolute path and
// fileid.ID (size, modification and change times, mode, device, inode).
// A file whose identity is unchanged since it was hashed is not read
// again: what the parse cache does for the tree's RST by content, this
// does for the files outside it, which a run would otherwise read in full
// every time, a stored report's run included.
//
// As git's index does, a file changed within fileid.RacyWindow of being
// hashed is not remembered: a write in the same tick of the clock as the
// hash would leave the identity unchanged and the sum wrong.
type Sums struct {
	path  string
	mu    sync.Mutex
	m     map[string]string // identity -> hex SHA-256
	dirty bool
}

// clock is the time the racy window is read on (tests move it on, to make
// files they just wrote count as settled).
var clock = time.Now

// sumsFile holds the remembered sums, one "identity\tsum" a line.
const sumsFile = "source-sums-v2"

// Sums returns the cache's remembered source sums, read from disk on
// first use (a missing or damaged file is an empty memory).
func (c *Cache) Sums() *Sums {
	c.sumsOnce.Do(func() {
		c.sums = &Sums{path: filepath.Join(c.dir, sumsFile), m: map[string]string{}}
		data, err := safefile.Read(c.sums.path)
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
	fid := fileid.Of(st)
	id := fileKey(abs, fid)
	keep := !strings.ContainsAny(abs, "\t\n") // the file's own separators
	s.mu.Lock()
	sum, ok = s.m[id]
	s.mu.Unlock()
	if ok {
		return sum, true
	}
	data, err := safefile.Read(abs)
	if err != nil {
		return "", false
	}
	h := sha256.Sum256(data)
	sum = hex.EncodeToString(h[:])
	// The identity is taken again after the read: a file written meanwhile
	// is hashed again next time rather than remembered wrongly.
	if st2, err := os.Stat(abs); err == nil && fileid.Of(st2) == fid && keep && fid.Settled(clock()) {
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
	if saveIdentities(s.path, s.m, nil, func(b []byte, id, sum string) []byte {
		return append(append(append(append(b, id...), '\t'), sum...), '\n')
	}) {
		s.dirty = false
	}
}
