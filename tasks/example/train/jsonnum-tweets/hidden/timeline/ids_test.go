package timeline

import (
	"slices"
	"testing"
)

func TestPostIDs(t *testing.T) {
	got, err := PostIDs([]byte(`[{"id":1,"text":"hello"},{"id":42,"text":"hello"},{"id":1000,"text":"hello"}]`))
	if err != nil || !slices.Equal(got, []int64{1, 42, 1000}) {
		t.Fatalf("PostIDs = %v, %v", got, err)
	}
	if _, err := PostIDs([]byte(`[{"text":"hello"}]`)); err == nil {
		t.Fatal("an item without id gave no error")
	}
}
