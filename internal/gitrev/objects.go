package gitrev

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// Objects is one git cat-file --batch process: objects asked for by
// name, one at a time (seg review reads a node's file at commit after
// commit through one).
type Objects struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// StartObjects starts the process, in the repository that holds dir.
func StartObjects(dir string) (*Objects, error) {
	cmd := Command(dir, "cat-file", "--batch")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot run git: %v", err)
	}
	return &Objects{cmd: cmd, in: in, out: bufio.NewReader(out)}, nil
}

// Read reads the object name (a blob's hash, or COMMIT:PATH); ok is false
// when there is no such blob.
func (c *Objects) Read(name string) ([]byte, bool, error) {
	if strings.ContainsAny(name, "\n") {
		return nil, false, nil
	}
	if _, err := fmt.Fprintln(c.in, name); err != nil {
		return nil, false, fmt.Errorf("git cat-file: %v", err)
	}
	head, err := c.out.ReadString('\n')
	if err != nil {
		return nil, false, fmt.Errorf("git cat-file: %v", err)
	}
	f := strings.Fields(head)
	if len(f) != 3 {
		return nil, false, nil // "NAME missing", "NAME ambiguous"
	}
	size, err := strconv.Atoi(f[2])
	if err != nil {
		return nil, false, fmt.Errorf("git cat-file: bad header %q", head)
	}
	data := make([]byte, size+1) // and the LF after it
	if _, err := io.ReadFull(c.out, data); err != nil {
		return nil, false, fmt.Errorf("git cat-file: %v", err)
	}
	return data[:size], f[1] == "blob", nil
}

// Close ends the process.
func (c *Objects) Close() {
	c.in.Close()
	c.cmd.Wait()
}
