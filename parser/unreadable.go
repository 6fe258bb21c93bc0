package parser

import (
	"errors"
	"io/fs"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/source"
)

// Unreadable is the File of a path that cannot be read (code
// unreadable-file): it has no nodes and one error.
func Unreadable(sf *source.File, err error) *File {
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg = pe.Err.Error()
	}
	return &File{Path: sf.Name(), Source: sf, Diagnostics: diag.List{{
		Code:    CodeUnreadable,
		Message: "cannot read " + sf.Name() + ": " + msg,
		Span:    source.At(sf.Whole()),
	}}}
}
