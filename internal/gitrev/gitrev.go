// Package gitrev writes out the tree of a git revision, so that seg can
// evaluate a tree as it was at a commit (seg diff --base REV) without
// touching the work tree: no checkout, no stash, no index change. It is
// also seg's one git client: every git process seg starts (seg review's
// history included) is a Command, in one environment, and reads objects
// through one cat-file process (Objects) or Extract's.
//
// It runs the git command rather than reading the repository itself:
// git is there wherever a revision is named (CI checkouts, worktrees,
// partial and shallow clones, alternates, SHA-256 repositories, packs of
// every version), and its plumbing commands (rev-parse, ls-tree,
// cat-file) are a stable interface. A Go reimplementation would be a
// large dependency that lags git on exactly those cases. The blobs are
// written as stored (no smudge or end-of-line filter, no export-ignore:
// git archive would apply .gitattributes and so drop or change files).
package gitrev

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"strconv"
	"strings"
)

// Error is a git failure, with what git said.
type Error struct {
	Args   []string
	Stderr string
	Err    error
}

func (e *Error) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), msg)
}

func (e *Error) Unwrap() error { return e.Err }

// git runs git in dir and returns its standard output.
func git(dir string, args ...string) ([]byte, error) {
	cmd := Command(dir, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, fmt.Errorf("git is not installed (seg runs git to read revisions): %w", err)
		}
		return nil, &Error{Args: args, Stderr: errb.String(), Err: err}
	}
	return out.Bytes(), nil
}

// Revision is a commit and the folder of the repository a tree's root is.
type Revision struct {
	// Commit is the full commit ID the revision names.
	Commit string
	// Prefix is the root's folder relative to the repository's top, with
	// forward slashes and no trailing slash ("" at the top).
	Prefix string
	dir    string
}

// Resolve finds the commit rev names in the repository that holds dir,
// and where dir is in it.
func Resolve(dir, rev string) (*Revision, error) {
	if rev == "" {
		return nil, errors.New("empty revision")
	}
	prefix, err := git(dir, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, err
	}
	commit, err := git(dir, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		var ge *Error
		if errors.As(err, &ge) && strings.TrimSpace(ge.Stderr) == "" {
			return nil, fmt.Errorf("%q names no commit of the repository at %s (fetch it first: a CI checkout is often shallow)", rev, dir)
		}
		return nil, err
	}
	return &Revision{Commit: strings.TrimSpace(string(commit)), Prefix: strings.TrimSuffix(strings.TrimSpace(string(prefix)), "/"), dir: dir}, nil
}

// entry is one line of git ls-tree -z.
type entry struct {
	mode, typ, object, path string
}

// Extract writes the revision's tree under its Prefix into dst (an
// existing empty folder): regular and executable files with their bytes
// as committed, symbolic links as links. Submodules are left out (their
// content is another repository's). Every write goes through an os.Root
// on dst, so no path of the tree can land outside it.
func (r *Revision) Extract(dst string) error {
	treeish := r.Commit + ":" + r.Prefix
	if _, err := git(r.dir, "cat-file", "-e", treeish); err != nil {
		return fmt.Errorf("the root %s does not exist at %s", orTop(r.Prefix), r.Commit[:min(12, len(r.Commit))])
	}
	out, err := git(r.dir, "ls-tree", "-r", "-z", "--full-tree", "--end-of-options", treeish)
	if err != nil {
		return err
	}
	var entries []entry
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		meta, p, ok := strings.Cut(string(rec), "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			return fmt.Errorf("git ls-tree: cannot read %q", rec)
		}
		if !validPath(p) {
			return fmt.Errorf("the tree at %s holds a path seg will not write: %q", r.Commit, p)
		}
		entries = append(entries, entry{f[0], f[1], f[2], p})
	}
	root, err := os.OpenRoot(dst)
	if err != nil {
		return err
	}
	defer root.Close()
	return r.writeBlobs(root, entries)
}

func orTop(prefix string) string {
	if prefix == "" {
		return "(the repository's top)"
	}
	return prefix
}

// validPath refuses what no checkout writes: absolute paths, "." and ".."
// segments, empty segments, .git folders.
func validPath(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") {
		return false
	}
	for _, s := range strings.Split(p, "/") {
		if s == "" || s == "." || s == ".." || strings.EqualFold(s, ".git") {
			return false
		}
	}
	return true
}

// writeBlobs streams every blob through one git cat-file --batch.
func (r *Revision) writeBlobs(root *os.Root, entries []entry) error {
	cmd := Command(r.dir, "cat-file", "--batch")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git cat-file: %v", err)
	}
	var blobs []entry
	for _, e := range entries {
		if e.typ == "blob" {
			blobs = append(blobs, e)
		}
	}
	go func() {
		bw := bufio.NewWriter(stdin)
		for _, e := range blobs {
			bw.WriteString(e.object + "\n")
		}
		bw.Flush()
		stdin.Close()
	}()
	br := bufio.NewReaderSize(stdout, 1<<16)
	for _, e := range blobs {
		if err := copyBlob(br, root, e); err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			return err
		}
	}
	if err := cmd.Wait(); err != nil {
		return &Error{Args: []string{"cat-file", "--batch"}, Stderr: errb.String(), Err: err}
	}
	return nil
}

// copyBlob reads the next object of git cat-file --batch's output, which
// must be the blob of e, and writes it under root at e's path.
func copyBlob(br *bufio.Reader, root *os.Root, e entry) error {
	header, err := br.ReadString('\n')
	if err != nil {
		return fmt.Errorf("git cat-file: %v", err)
	}
	f := strings.Fields(header)
	if len(f) != 3 || f[1] != "blob" {
		return fmt.Errorf("git cat-file: %s: %s", e.path, strings.TrimSpace(header))
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		return fmt.Errorf("git cat-file: %s: bad size %q", e.path, f[2])
	}
	if dir := path.Dir(e.path); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	if err := writeEntry(root, e, io.LimitReader(br, size)); err != nil {
		return err
	}
	if _, err := br.Discard(1); err != nil { // the newline after the content
		return fmt.Errorf("git cat-file: %v", err)
	}
	return nil
}

// writeEntry writes the content of e under root: a symbolic link, or a
// file, executable when git says so.
func writeEntry(root *os.Root, e entry, body io.Reader) error {
	if e.mode == "120000" {
		target, err := io.ReadAll(body)
		if err != nil {
			return err
		}
		return root.Symlink(string(target), e.path)
	}
	mode := os.FileMode(0o644)
	if e.mode == "100755" {
		mode = 0o755
	}
	fh, err := root.OpenFile(e.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	_, err = io.Copy(fh, body)
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	return err
}
