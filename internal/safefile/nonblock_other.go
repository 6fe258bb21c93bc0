//go:build !unix

package safefile

// openNonBlock is 0 where there are no FIFOs to wait on.
const openNonBlock = 0
