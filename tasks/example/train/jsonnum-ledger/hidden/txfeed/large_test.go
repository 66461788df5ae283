package txfeed

import (
	"slices"
	"testing"
)

func TestAmountsLarge(t *testing.T) {
	got, err := Amounts([]byte(`[{"amount":2100000000000001,"asset":"sat"},{"amount":9223372036854775807,"asset":"sat"},{"amount":18014398509481985,"asset":"sat"}]`))
	if err != nil || !slices.Equal(got, []int64{2100000000000001, 9223372036854775807, 18014398509481985}) {
		t.Fatalf("Amounts = %v, %v\nwant %v", got, err, []int64{2100000000000001, 9223372036854775807, 18014398509481985})
	}
}
