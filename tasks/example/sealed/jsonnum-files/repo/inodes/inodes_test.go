package inodes

import (
	"slices"
	"testing"
)

func TestInodes(t *testing.T) {
	got, err := Inodes([]byte(`[{"ino":2,"path":"/tmp/x"},{"ino":11,"path":"/tmp/x"},{"ino":131,"path":"/tmp/x"}]`))
	if err != nil || !slices.Equal(got, []int64{2, 11, 131}) {
		t.Fatalf("Inodes = %v, %v", got, err)
	}
	if _, err := Inodes([]byte(`[{"path":"/tmp/x"}]`)); err == nil {
		t.Fatal("an item without ino gave no error")
	}
}
