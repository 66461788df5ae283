package sqldump

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestCountInsertsLongLines(t *testing.T) {
	long := strings.Repeat("x", 500000) + " " + "INSERT INTO orders"
	in := "INSERT INTO orders VALUES (1)" + "\n" + long + "\n" + "CREATE TABLE t (x int);" + "\n" + long + long + "\n" + "INSERT INTO orders VALUES (2)"
	if n, err := CountInserts(strings.NewReader(in), "INSERT INTO orders"); err != nil || n != 4 {
		t.Fatalf("CountInserts = %d, %v; want 4, nil", n, err)
	}
}

func TestCountInsertsReadError(t *testing.T) {
	boom := errors.New("disk unplugged")
	r := io.MultiReader(strings.NewReader("INSERT INTO orders VALUES (1)"+"\n"), failing{boom})
	if _, err := CountInserts(r, "INSERT INTO orders"); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the read error", err)
	}
}

type failing struct{ err error }

func (f failing) Read([]byte) (int, error) { return 0, f.err }
