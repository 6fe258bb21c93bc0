//go:build unix

package cache

import "syscall"

func mkfifo(name string) error { return syscall.Mkfifo(name, 0o644) }
