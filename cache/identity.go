package cache

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seg-trace/seg/internal/fileid"
)

// The memories of the files outside the parse cache (Sums, CodeTags) are
// kept by the file's identity: its absolute path and its fileid.ID.

// fileKey is the key of file abs whose identity is id.
func fileKey(abs string, id fileid.ID) string { return abs + "\x00" + id.String() }

// saveIdentities writes a memory kept by identity to path, atomically:
// every entry of m in the order of its key, appended by put, but those
// of files that are gone (an entry this run used, used(v), is taken to be
// there; used may be nil). It reports whether the file was written: a
// memory that cannot be written is only a slower next run.
func saveIdentities[V any](path string, m map[string]V, used func(V) bool, put func(b []byte, id string, v V) []byte) bool {
	var b []byte
	for _, id := range slices.Sorted(maps.Keys(m)) {
		v := m[id]
		if used == nil || !used(v) {
			abs, _, _ := strings.Cut(id, "\x00")
			if _, err := os.Lstat(abs); err != nil {
				continue
			}
		}
		b = put(b, id, v)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false
	}
	return writeAtomic(dir, path, b) == nil
}
