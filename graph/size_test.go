package graph

import (
	"testing"
	"unsafe"
)

// A graph node stays small: a large tree has hundreds of thousands, and
// the language server holds two graphs while it analyses an edit. What
// only one kind of node has is behind a pointer (outcomeData, moreData);
// a field added to Node for one kind belongs there.
func TestNodeSize(t *testing.T) {
	if n := unsafe.Sizeof(Node{}); n > 200 {
		t.Errorf("graph.Node is %d bytes, over 200 (it was 456 with every kind's options inline)", n)
	}
}
