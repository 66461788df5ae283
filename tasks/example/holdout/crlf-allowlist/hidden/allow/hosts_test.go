package allow

import "testing"

func TestLoad(t *testing.T) {
	l := Load("# allowed hosts\nbuild01\nbuild02\ndb-primary\nbastion\n")
	for _, n := range []string{"build01", "build02", "db-primary", "bastion"} {
		if !l.Allowed(n) {
			t.Errorf("%q is missing", n)
		}
	}
	if l.Allowed("evil.example") || len(l) != 4 {
		t.Errorf("Load = %v", l)
	}
}
