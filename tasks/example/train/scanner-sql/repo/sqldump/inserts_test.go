package sqldump

import (
	"strings"
	"testing"
)

func TestCountInserts(t *testing.T) {
	in := "INSERT INTO orders VALUES (1)" + "\n" + "CREATE TABLE t (x int);" + "\n" + "INSERT INTO orders VALUES (2)" + "\n"
	if n, err := CountInserts(strings.NewReader(in), "INSERT INTO orders"); err != nil || n != 2 {
		t.Fatalf("CountInserts = %d, %v; want 2", n, err)
	}
}
