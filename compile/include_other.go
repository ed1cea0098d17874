//go:build !unix

package compile

import "os"

// openNoFollow opens path read-only. Without O_NOFOLLOW the checks after the
// open (the path still resolves to itself and names the same file) are
// what keeps a swapped-in symbolic link out.
func openNoFollow(path string) (*os.File, error) { return os.Open(path) }

// hardLinks reports one link: the platform gives no portable count.
func hardLinks(os.FileInfo) uint64 { return 1 }
