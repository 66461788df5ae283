package orderfeed

import (
	"slices"
	"testing"
)

func TestOrderNumbersLarge(t *testing.T) {
	got, err := OrderNumbers([]byte(`[{"order_no":4611686018427387905,"status":"paid"},{"order_no":123456789012345678,"status":"paid"},{"order_no":12,"status":"paid"}]`))
	if err != nil || !slices.Equal(got, []int64{4611686018427387905, 123456789012345678, 12}) {
		t.Fatalf("OrderNumbers = %v, %v\nwant %v", got, err, []int64{4611686018427387905, 123456789012345678, 12})
	}
}
