// Command seg checks requirements traceability in a reStructuredText tree.
// Everything it does lives in package cli, which the tests call directly.
package main

import (
	"os"

	"github.com/seg-trace/seg/cli"
)

func main() {
	os.Exit(cli.Execute(os.Args[1:], os.Stdout, os.Stderr))
}
