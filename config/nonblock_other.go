//go:build !unix

package config

const nonBlocking = 0
