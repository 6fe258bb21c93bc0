//go:build unix

package cli

import "syscall"

func mkfifo(name string) error { return syscall.Mkfifo(name, 0o644) }

// setUmask sets the process's umask and returns the one before.
func setUmask(mask int) int { return syscall.Umask(mask) }
