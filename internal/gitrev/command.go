package gitrev

import (
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
)

// Command is git with args, to be run in dir, in the one environment seg
// runs git in (for seg diff --base and for seg review's history alike):
//
//   - the repository is the one that holds dir: GIT_DIR, GIT_WORK_TREE,
//     GIT_COMMON_DIR and GIT_INDEX_FILE inherited from the caller (a git
//     hook sets some of them) are dropped, so that git cannot read
//     another repository's history for this tree's;
//   - GIT_OPTIONAL_LOCKS=0: reading takes no lock and refreshes no index;
//   - LC_ALL=C: git's messages, which seg quotes, are the same everywhere;
//   - GIT_TERMINAL_PROMPT=0: a partial clone that must fetch an object
//     fails instead of waiting for a password;
//   - core.quotepath=off and no pager: paths come out as stored.
//
// The user's and the system's git configuration are read, as the user's
// git reads them (a repository may need them: safe.directory,
// alternates, a partial clone's remote).
func Command(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", append([]string{"-c", "core.quotepath=off", "--no-pager"}, args...)...)
	cmd.Dir = dir
	cmd.Env = environment(cmd.Environ())
	return cmd
}

// dropped are the variables that would point git at a repository other
// than the one dir is in.
var dropped = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE"}

// set are the variables seg gives git, whatever the caller's are.
var set = []string{"GIT_OPTIONAL_LOCKS=0", "LC_ALL=C", "GIT_TERMINAL_PROMPT=0"}

func environment(env []string) []string {
	out := make([]string, 0, len(env)+len(set))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(dropped, k) || slices.ContainsFunc(set, func(s string) bool { return strings.HasPrefix(s, k+"=") }) {
			continue
		}
		out = append(out, kv)
	}
	return append(out, set...)
}

// Installed says why git cannot be run, nil when it can.
func Installed() error {
	if _, err := exec.LookPath("git"); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return fmt.Errorf("git is not installed (seg runs git to read revisions): %w", err)
		}
		return err
	}
	return nil
}
