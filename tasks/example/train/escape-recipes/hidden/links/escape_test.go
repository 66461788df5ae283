package links

import (
	"net/url"
	"testing"
)

func TestSearchURLEscapes(t *testing.T) {
	for _, s := range []string{"salt & pepper", "mac+cheese", "crème brûlée", "100% rye", "a=b", "c#"} {
		link := SearchURL(s, 3)
		u, err := url.Parse(link)
		if err != nil {
			t.Errorf("%s: %v", link, err)
			continue
		}
		if q := u.Query(); q.Get("q") != s || q.Get("page") != "3" || len(q) != 2 || u.Fragment != "" {
			t.Errorf("%s: query %v, want q=%q", link, q, s)
		}
	}
}
