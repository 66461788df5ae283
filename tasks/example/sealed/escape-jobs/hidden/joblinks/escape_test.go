package joblinks

import (
	"net/url"
	"testing"
)

func TestJobsURLEscapes(t *testing.T) {
	for _, s := range []string{"C++ developer", "R&D lead", "UX/UI", "sales 100%", "a=b", "C#"} {
		link := JobsURL(s, 3)
		u, err := url.Parse(link)
		if err != nil {
			t.Errorf("%s: %v", link, err)
			continue
		}
		if q := u.Query(); q.Get("title") != s || q.Get("p") != "3" || len(q) != 2 || u.Fragment != "" {
			t.Errorf("%s: query %v, want title=%q", link, q, s)
		}
	}
}
