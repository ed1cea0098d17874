//go:build unix

package compile

import (
	"os"
	"syscall"
)

// openNoFollow opens path read-only without following a final symbolic link
// (O_NOFOLLOW) and without blocking on a FIFO (O_NONBLOCK).
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}

// hardLinks is the hard-link count of an opened file.
func hardLinks(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
