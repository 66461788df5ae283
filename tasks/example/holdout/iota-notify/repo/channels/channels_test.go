package channels

import "testing"

func TestHas(t *testing.T) {
	p := SMS | Push
	if !p.Has(SMS) || !p.Has(Push) || !p.Has(SMS|Push) {
		t.Fatalf("%d does not hold SMS and Push", p)
	}
	if SMS.Has(Push) || Push.Has(SMS) {
		t.Fatal("SMS and Push overlap")
	}
}
