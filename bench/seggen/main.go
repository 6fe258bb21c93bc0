//go:build seggen

// Command seggen writes a synthetic documentation tree for seg's
// benchmarks. See bench/README.md.
//
//	go run -tags seggen ./bench/seggen -n 50000 -seed 1 -out DIR [-defects] [-force]
//	go run -tags seggen ./bench/seggen -dense-mb 20 -files 1000 -seed 1 -out DIR
//
// The build tag keeps seggen out of `go install ./...`, which is how
// pre-commit's golang language installs a hook: users of seg's hook get
// seg alone. Its code and tests are in package gen (gen.Command), so
// `go test ./...` still covers it.
package main

import (
	"os"

	"github.com/seg-trace/seg/bench/gen"
)

func main() { os.Exit(gen.Command(os.Args[1:], os.Stdout, os.Stderr)) }
