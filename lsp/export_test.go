package lsp

import "time"

// SetBackgroundPause makes the background publisher wait so long before
// each file, so that an edit surely comes in while it runs; it returns
// the function that undoes it.
func SetBackgroundPause(d time.Duration) func() {
	backgroundPause = d
	return func() { backgroundPause = 0 }
}
