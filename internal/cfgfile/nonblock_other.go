//go:build !unix

package cfgfile

const nonBlocking = 0
