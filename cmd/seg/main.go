// Command seg checks requirements traceability in a reStructuredText tree.
// Everything it does lives in package cli, which the tests call directly.
package main

import (
	"os"
	"strings"

	"github.com/seg-trace/seg/cli"
	"github.com/seg-trace/seg/internal/hugepages"
)

func main() {
	// First, while the heap is still empty: the heap a command that reads
	// a tree grows into gets huge pages (docs/performance.md, "Huge
	// pages").
	if len(os.Args) > 1 && !strings.Contains(" version --version -version help -h --help -help ", " "+os.Args[1]+" ") {
		hugepages.Prepare(2 << 30)
	}
	os.Exit(cli.Execute(os.Args[1:], os.Stdout, os.Stderr))
}
