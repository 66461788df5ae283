package blocklist

import "testing"

func TestLoadDOS(t *testing.T) {
	l := Load("# blocked senders\r\n\r\nspam@example.com\r\n  ads@example.net\r\nnoreply@example.biz\r\n")
	for _, n := range []string{"spam@example.com", "ads@example.net", "noreply@example.biz"} {
		if !l.Blocked(n) {
			t.Errorf("%q is missing", n)
		}
	}
	if len(l) != 3 {
		var keys []string
		for k := range l {
			keys = append(keys, k)
		}
		t.Errorf("Load has %d entries, want 3: %q", len(l), keys)
	}
}
