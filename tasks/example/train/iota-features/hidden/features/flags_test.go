package features

import "testing"

func TestString(t *testing.T) {
	for _, c := range []struct {
		p    Set
		want string
	}{
		{0, "none"},
		{DarkMode, "dark-mode"},
		{Beta | Telemetry, "beta+telemetry"},
		{Export, "export"},
		{DarkMode | Beta | Telemetry | Export, "dark-mode+beta+telemetry+export"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("String of %d = %q, want %q", c.p, got, c.want)
		}
	}
}

func TestDistinctFlags(t *testing.T) {
	all := []Set{DarkMode, Beta, Telemetry, Export}
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
	if (Beta | Telemetry).Has(Export) {
		t.Error("Beta|Telemetry holds Export")
	}
}
