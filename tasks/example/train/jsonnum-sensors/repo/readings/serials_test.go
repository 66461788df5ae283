package readings

import (
	"slices"
	"testing"
)

func TestSerials(t *testing.T) {
	got, err := Serials([]byte(`[{"serial":77,"model":"TH-2"},{"serial":78,"model":"TH-2"},{"serial":79,"model":"TH-2"}]`))
	if err != nil || !slices.Equal(got, []int64{77, 78, 79}) {
		t.Fatalf("Serials = %v, %v", got, err)
	}
	if _, err := Serials([]byte(`[{"model":"TH-2"}]`)); err == nil {
		t.Fatal("an item without serial gave no error")
	}
}
