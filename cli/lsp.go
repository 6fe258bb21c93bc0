package cli

import (
	"context"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"time"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/lsp"
)

// stdin is what seg lsp reads the editor's messages from.
var stdin io.Reader = os.Stdin

// runLsp is `seg lsp [ROOT]`: the language server on standard input and
// output (docs/editors.md). Without ROOT the root is the workspace folder
// the editor names. The tree is read as seg check reads it with the same
// flags, again whenever a config file changes. The exit code is the
// protocol's: 0 after shutdown and exit, 1 when the editor went away
// without them.
func runLsp(args []string, stdout, stderr io.Writer) (int, check.Stats, error) {
	// Editors' generic clients often add --stdio; stdio is the only
	// transport, so it is accepted and changes nothing.
	args = slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "--stdio" || a == "-stdio" })
	o, err := parseFlags("lsp", args, stdout)
	if err != nil {
		return 0, check.Stats{}, err
	}
	if len(o.args) > 1 {
		return 0, check.Stats{}, usagef("seg lsp: too many arguments (usage: seg lsp [ROOT])")
	}
	if len(o.results) == 0 && (o.witness != "" || o.resultsConfig != "") {
		return 0, check.Stats{}, usagef("seg: --witness and --results-config go with --results")
	}
	cfg := lsp.Config{Version: versionString(), Log: stderr}
	if len(o.args) == 1 {
		cfg.Root = o.args[0]
	}
	cfg.Open = func(root string) (*check.Tree, check.Options, error) {
		t, co, err := open(root, o)
		// The server keeps every parse for as long as it runs.
		co.Compact = true
		return t, co, err
	}
	if o.at != "" {
		cfg.At, _ = time.Parse(time.DateOnly, o.at)
	}
	// SEG_LSP_CPUPROFILE=FILE writes a CPU profile of the session, for
	// bench/lspbench (bench/README.md).
	if p := os.Getenv("SEG_LSP_CPUPROFILE"); p != "" {
		if f, err := os.Create(p); err == nil {
			pprof.StartCPUProfile(f)
			defer func() { pprof.StopCPUProfile(); f.Close() }()
		}
	}
	// SEG_LSP_MEMPROFILE=FILE writes a heap profile when the session
	// ends (what is live then, and what was allocated), for the same.
	if p := os.Getenv("SEG_LSP_MEMPROFILE"); p != "" {
		defer func() {
			if f, err := os.Create(p); err == nil {
				runtime.GC()
				pprof.WriteHeapProfile(f)
				f.Close()
			}
		}()
	}
	lsp.LazyStartUp()
	return lsp.Serve(context.Background(), stdio{stdin, stdout}, cfg), check.Stats{}, nil
}

// stdio joins standard input and output into the stream the server reads
// and writes.
type stdio struct {
	io.Reader
	io.Writer
}

func (s stdio) Close() error {
	if c, ok := s.Reader.(io.Closer); ok {
		c.Close()
	}
	return nil
}
