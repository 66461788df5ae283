package allow

import "testing"

func TestLoadDOS(t *testing.T) {
	l := Load("# allowed hosts\r\n\r\nbuild01\r\n  build02\r\ndb-primary\r\nbastion\r\n")
	for _, n := range []string{"build01", "build02", "db-primary", "bastion"} {
		if !l.Allowed(n) {
			t.Errorf("%q is missing", n)
		}
	}
	if len(l) != 4 {
		var keys []string
		for k := range l {
			keys = append(keys, k)
		}
		t.Errorf("Load has %d entries, want 4: %q", len(l), keys)
	}
}
