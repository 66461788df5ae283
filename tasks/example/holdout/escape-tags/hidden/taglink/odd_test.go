package taglink

import (
	"net/url"
	"strings"
	"testing"
)

func TestTagURLOdd(t *testing.T) {
	for _, name := range []string{"new york", "b/w", "café", "#tbt", "why?", "1/2 marathon"} {
		link := TagURL(name)
		u, err := url.Parse(link)
		if err != nil {
			t.Errorf("%s: %v", link, err)
			continue
		}
		if u.RawQuery != "" || u.Fragment != "" {
			t.Errorf("%s: the name spilled into the query or fragment", link)
			continue
		}
		seg, ok := strings.CutPrefix(u.EscapedPath(), "/tag/")
		if got, err := url.PathUnescape(seg); !ok || err != nil || got != name || strings.Contains(seg, "/") {
			t.Errorf("%s: last path segment %q, want %q", link, seg, name)
		}
	}
}
