package features

import "testing"

func TestHas(t *testing.T) {
	p := Beta | Telemetry
	if !p.Has(Beta) || !p.Has(Telemetry) || !p.Has(Beta|Telemetry) {
		t.Fatalf("%d does not hold Beta and Telemetry", p)
	}
	if Beta.Has(Telemetry) || Telemetry.Has(Beta) {
		t.Fatal("Beta and Telemetry overlap")
	}
}
