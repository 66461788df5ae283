package txfeed

import (
	"slices"
	"testing"
)

func TestAmounts(t *testing.T) {
	got, err := Amounts([]byte(`[{"amount":5000,"asset":"sat"},{"amount":1,"asset":"sat"},{"amount":210000,"asset":"sat"}]`))
	if err != nil || !slices.Equal(got, []int64{5000, 1, 210000}) {
		t.Fatalf("Amounts = %v, %v", got, err)
	}
	if _, err := Amounts([]byte(`[{"asset":"sat"}]`)); err == nil {
		t.Fatal("an item without amount gave no error")
	}
}
