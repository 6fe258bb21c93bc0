package cli

import "io"

func runMatrix(args []string, stdout, stderr io.Writer) (int, error) {
	return 0, usagef("seg matrix: not built yet")
}
