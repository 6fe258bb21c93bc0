//go:build !unix

package cache

import "io/fs"

// sysIdentity is empty where the system gives no more than size and time.
func sysIdentity(fs.FileInfo) string { return "" }
