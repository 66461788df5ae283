package readings

import (
	"slices"
	"testing"
)

func TestSerialsLarge(t *testing.T) {
	got, err := Serials([]byte(`[{"serial":36028797018963971,"model":"TH-2"},{"serial":72057594037927937,"model":"TH-2"},{"serial":3,"model":"TH-2"}]`))
	if err != nil || !slices.Equal(got, []int64{36028797018963971, 72057594037927937, 3}) {
		t.Fatalf("Serials = %v, %v\nwant %v", got, err, []int64{36028797018963971, 72057594037927937, 3})
	}
}
