package blocklist

import "testing"

func TestLoad(t *testing.T) {
	l := Load("# blocked senders\nspam@example.com\nads@example.net\nnoreply@example.biz\n")
	for _, n := range []string{"spam@example.com", "ads@example.net", "noreply@example.biz"} {
		if !l.Blocked(n) {
			t.Errorf("%q is missing", n)
		}
	}
	if l.Blocked("friend@example.org") || len(l) != 3 {
		t.Errorf("Load = %v", l)
	}
}
