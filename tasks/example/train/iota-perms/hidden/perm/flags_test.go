package perm

import "testing"

func TestString(t *testing.T) {
	for _, c := range []struct {
		p    Perm
		want string
	}{
		{0, "none"},
		{Read, "read"},
		{Write | Share, "write+share"},
		{Delete, "delete"},
		{Read | Write | Share | Delete, "read+write+share+delete"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("String of %d = %q, want %q", c.p, got, c.want)
		}
	}
}

func TestDistinctFlags(t *testing.T) {
	all := []Perm{Read, Write, Share, Delete}
	for i, a := range all {
		if a == 0 {
			t.Errorf("flag %d is the empty set", i)
		}
		for j, b := range all {
			if i != j && a&b != 0 {
				t.Errorf("flags %d and %d overlap", i, j)
			}
		}
	}
	if (Write | Share).Has(Delete) {
		t.Error("Write|Share holds Delete")
	}
}
