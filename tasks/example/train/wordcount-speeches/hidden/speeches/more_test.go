package speeches

import "testing"

func TestTallyMore(t *testing.T) {
	got := Tally("It's time, it's now: 2024, 2024!")
	if got["it's"] != 2 || got["time"] != 1 || got["now"] != 1 || got["2024"] != 2 || len(got) != 4 {
		t.Fatalf("Tally = %v", got)
	}
	if n := len(Tally(" -- ?! ")); n != 0 {
		t.Fatalf("punctuation only gave %d words", n)
	}
}
