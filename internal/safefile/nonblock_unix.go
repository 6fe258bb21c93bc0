//go:build unix

package safefile

import "syscall"

// openNonBlock keeps an open of a FIFO from waiting for a writer.
const openNonBlock = syscall.O_NONBLOCK
