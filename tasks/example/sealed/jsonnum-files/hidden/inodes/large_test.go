package inodes

import (
	"slices"
	"testing"
)

func TestInodesLarge(t *testing.T) {
	got, err := Inodes([]byte(`[{"ino":144115188075855873,"path":"/tmp/x"},{"ino":9007199254740997,"path":"/tmp/x"},{"ino":4,"path":"/tmp/x"}]`))
	if err != nil || !slices.Equal(got, []int64{144115188075855873, 9007199254740997, 4}) {
		t.Fatalf("Inodes = %v, %v\nwant %v", got, err, []int64{144115188075855873, 9007199254740997, 4})
	}
}
