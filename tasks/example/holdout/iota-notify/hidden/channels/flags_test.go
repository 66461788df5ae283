package channels

import "testing"

func TestString(t *testing.T) {
	for _, c := range []struct {
		p    Channels
		want string
	}{
		{0, "none"},
		{Email, "email"},
		{SMS | Push, "sms+push"},
		{Pager, "pager"},
		{Email | SMS | Push | Slack | Pager, "email+sms+push+slack+pager"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("String of %d = %q, want %q", c.p, got, c.want)
		}
	}
}

func TestDistinctFlags(t *testing.T) {
	all := []Channels{Email, SMS, Push, Slack, Pager}
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
	if (SMS | Push).Has(Slack) {
		t.Error("SMS|Push holds Slack")
	}
}
