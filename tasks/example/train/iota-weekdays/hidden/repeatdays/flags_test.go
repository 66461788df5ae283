package repeatdays

import "testing"

func TestString(t *testing.T) {
	for _, c := range []struct {
		p    Days
		want string
	}{
		{0, "none"},
		{Mon, "mon"},
		{Tue | Wed, "tue+wed"},
		{Sun, "sun"},
		{Mon | Tue | Wed | Thu | Fri | Sat | Sun, "mon+tue+wed+thu+fri+sat+sun"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("String of %d = %q, want %q", c.p, got, c.want)
		}
	}
}

func TestDistinctFlags(t *testing.T) {
	all := []Days{Mon, Tue, Wed, Thu, Fri, Sat, Sun}
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
	if (Tue | Wed).Has(Thu) {
		t.Error("Tue|Wed holds Thu")
	}
}
