package hashtags

import "testing"

func TestTrendingOrder(t *testing.T) {
	counts := map[string]int{"#go": 1, "#rust": 3, "#zig": 5, "#cats": 2, "#dogs": 4, "#news": 1, "#music": 3, "#art": 5, "#travel": 2, "#food": 4, "#sports": 1, "#tech": 3, "#books": 5, "#film": 2, "#games": 4, "#science": 1, "#nature": 3, "#photo": 5, "#design": 2, "#health": 4, "#jobs": 1, "#weather": 3}
	want := "#art: 5\n#books: 5\n#photo: 5\n#zig: 5\n#dogs: 4\n#food: 4\n#games: 4\n#health: 4\n#music: 3\n#nature: 3\n#rust: 3\n#tech: 3\n#weather: 3\n#cats: 2\n#design: 2\n#film: 2\n#travel: 2\n#go: 1\n#jobs: 1\n#news: 1\n#science: 1\n#sports: 1\n"
	for range 3 {
		if got := Trending(counts); got != want {
			t.Fatalf("Trending =\n%s\nwant\n%s", got, want)
		}
	}
}
