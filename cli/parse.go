package cli

import (
	"github.com/seg-trace/seg/config"
	"github.com/seg-trace/seg/parser"
)

// parseTree reads every file of the tree.
func parseTree(root string, cfg *config.Config, o *options) ([]*parser.File, error) {
	return parser.ParseTree(root, cfg.Parser)
}
