package userfeed

import (
	"slices"
	"testing"
)

func TestUserIDsLarge(t *testing.T) {
	got, err := UserIDs([]byte(`[{"user_id":9007199254740995,"name":"kim"},{"user_id":288230376151711745,"name":"kim"},{"user_id":1,"name":"kim"}]`))
	if err != nil || !slices.Equal(got, []int64{9007199254740995, 288230376151711745, 1}) {
		t.Fatalf("UserIDs = %v, %v\nwant %v", got, err, []int64{9007199254740995, 288230376151711745, 1})
	}
}
