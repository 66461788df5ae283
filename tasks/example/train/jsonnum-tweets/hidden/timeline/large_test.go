package timeline

import (
	"slices"
	"testing"
)

func TestPostIDsLarge(t *testing.T) {
	got, err := PostIDs([]byte(`[{"id":1793720155623657473,"text":"hello"},{"id":9007199254740993,"text":"hello"},{"id":7,"text":"hello"}]`))
	if err != nil || !slices.Equal(got, []int64{1793720155623657473, 9007199254740993, 7}) {
		t.Fatalf("PostIDs = %v, %v\nwant %v", got, err, []int64{1793720155623657473, 9007199254740993, 7})
	}
}
