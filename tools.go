//go:build tools

// Package tools pins modules that only tests or helper programs import, so
// that go mod tidy keeps them while the packages that use them grow.
package tools

import (
	_ "github.com/BurntSushi/toml"
	_ "github.com/alecthomas/participle/v2"
	_ "github.com/fatih/color"
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/mattn/go-isatty"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
)
