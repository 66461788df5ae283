package orderfeed

import (
	"slices"
	"testing"
)

func TestOrderNumbers(t *testing.T) {
	got, err := OrderNumbers([]byte(`[{"order_no":100,"status":"paid"},{"order_no":101,"status":"paid"},{"order_no":250,"status":"paid"}]`))
	if err != nil || !slices.Equal(got, []int64{100, 101, 250}) {
		t.Fatalf("OrderNumbers = %v, %v", got, err)
	}
	if _, err := OrderNumbers([]byte(`[{"status":"paid"}]`)); err == nil {
		t.Fatal("an item without order_no gave no error")
	}
}
