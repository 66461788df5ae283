package userfeed

import (
	"slices"
	"testing"
)

func TestUserIDs(t *testing.T) {
	got, err := UserIDs([]byte(`[{"user_id":9,"name":"kim"},{"user_id":10,"name":"kim"},{"user_id":11,"name":"kim"}]`))
	if err != nil || !slices.Equal(got, []int64{9, 10, 11}) {
		t.Fatalf("UserIDs = %v, %v", got, err)
	}
	if _, err := UserIDs([]byte(`[{"name":"kim"}]`)); err == nil {
		t.Fatal("an item without user_id gave no error")
	}
}
