package cli

import "io"

func runImport(args []string, stdout, stderr io.Writer) (int, error) {
	return 0, usagef("seg import: not built yet")
}
