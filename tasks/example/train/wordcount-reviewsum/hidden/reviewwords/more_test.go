package reviewwords

import "testing"

func TestFrequenciesMore(t *testing.T) {
	got := Frequencies("Don't buy; don't! Crashes (3 times) 3")
	if got["don't"] != 2 || got["buy"] != 1 || got["crashes"] != 1 || got["3"] != 2 || got["times"] != 1 || len(got) != 5 {
		t.Fatalf("Frequencies = %v", got)
	}
	if n := len(Frequencies(" -- ?! ")); n != 0 {
		t.Fatalf("punctuation only gave %d words", n)
	}
}
