//go:build !unix

package cli

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs on this system") }

func setUmask(int) int { return 0 }
