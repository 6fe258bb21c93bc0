package graph

// sameGraph reports whether a and b are equal in value but for their
// generations (every build numbers its graph anew).
func sameGraph(a, b *Graph) bool { return Equal(a, b) }
