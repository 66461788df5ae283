// Package datafile reads files that others wrote (an agent, a project's
// author) as data, never as links or devices. It imports only the standard
// library. The anchor keeps its own few lines for this, as it imports
// nothing of the project.
package datafile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// Open opens path for reading without following a final link and without
// blocking on a FIFO or device, and refuses anything but a regular file.
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%s is a link, not a file", path)
	}
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file", path)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Read reads at most limit bytes of the regular file path (see Open);
// truncated says the file held more.
func Read(path string, limit int64) (data []byte, truncated bool, err error) {
	f, err := Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, limit+1))
	if int64(len(data)) > limit {
		return data[:limit], true, err
	}
	return data, false, err
}
