package cache

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"io"
	"os"
	"runtime/debug"
	"sync"
)

// The build identity is what makes an entry belong to one build of seg:
// the parser's output may change with any change to seg's code, its
// dependencies or the toolchain, and a dev build keeps the version string
// of the release it grew from. It is a hash of
//
//   - the module's build info (debug.ReadBuildInfo: Go version, module and
//     dependency versions and sums, build settings, the VCS revision and
//     whether the checkout was modified), and
//   - the Go build ID of the running executable, which the go command
//     derives from the hashes of every input of the link, so that two
//     builds of different code never share it (a dirty checkout builds
//     under one VCS revision, so the revision alone is not enough). When
//     the build ID cannot be found (not a Go build ID'd binary, or an
//     executable format searched without success), the SHA-256 of the
//     whole executable stands in; when the executable cannot be read at
//     all, there is no identity and the cache is off.
//
// The version string of seg is added by the caller (cli.Version).
//
// What reading the build ID buys: the plain exact identity, a SHA-256 of
// the whole executable (8.7 MB), costs about 9 ms a run; the build ID about
// 0.1 ms. A run served from the result cache (1,250 requirements) took
// 0.023 s with the hash against 0.014 s with the build ID (medians of 41
// alternating runs; docs/performance.md, "What the clever parts buy").
// An identity from the executable's path, size and modification time is
// as cheap but not exact: two builds with the same of each would share
// entries.

var (
	identityOnce sync.Once
	identity     string
)

// buildIdentity returns the hex identity of the running binary, or "" when
// it cannot be established. It is computed once per process.
func buildIdentity() string {
	identityOnce.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			return
		}
		id := goBuildID(exe)
		if id == "" {
			id = fileHash(exe)
			if id == "" {
				return
			}
		} else {
			id = "go:" + id
		}
		h := sha256.New()
		if bi, ok := debug.ReadBuildInfo(); ok {
			io.WriteString(h, bi.String())
		}
		h.Write([]byte{0})
		io.WriteString(h, id)
		identity = hex.EncodeToString(h.Sum(nil))
	})
	return identity
}

var (
	goBuildPrefix = []byte("\xff Go build ID: \"")
	goBuildEnd    = []byte("\"\n \xff")
)

// goBuildID reads the Go build ID of an executable, as `go tool buildid`
// does: from the .note.go.buildid ELF note, or else from the marker the
// linker writes at the start of the text of other formats (Mach-O, PE),
// which lies in the first pages of the file. It returns "" when it finds
// none.
func goBuildID(name string) string {
	f, err := os.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if bytes.HasPrefix(head, []byte(elf.ELFMAG)) {
		ef, err := elf.NewFile(f)
		if err != nil {
			return ""
		}
		s := ef.Section(".note.go.buildid")
		if s == nil {
			return ""
		}
		data, err := s.Data()
		if err != nil {
			return ""
		}
		return elfNote(data, ef.ByteOrder)
	}
	i := bytes.Index(head, goBuildPrefix)
	if i < 0 {
		return ""
	}
	rest := head[i+len(goBuildPrefix):]
	j := bytes.Index(rest, goBuildEnd)
	if j <= 0 || j > 1024 {
		return ""
	}
	return string(rest[:j])
}

// elfNote reads the Go note: name "Go\x00\x00", type 4, the ID as its
// description.
func elfNote(data []byte, bo binary.ByteOrder) string {
	if len(data) < 16 {
		return ""
	}
	namesz, descsz, typ := bo.Uint32(data), bo.Uint32(data[4:]), bo.Uint32(data[8:])
	if namesz != 4 || typ != 4 || string(data[12:16]) != "Go\x00\x00" || uint64(descsz) > uint64(len(data)-16) || descsz == 0 {
		return ""
	}
	return string(data[16 : 16+descsz])
}

func fileHash(name string) string {
	f, err := os.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
