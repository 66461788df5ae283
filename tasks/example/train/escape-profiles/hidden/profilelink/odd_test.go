package profilelink

import (
	"net/url"
	"strings"
	"testing"
)

func TestProfileURLOdd(t *testing.T) {
	for _, name := range []string{"ann marie", "a/b", "zoë", "50%", "q?x", "hash#tag"} {
		link := ProfileURL(name)
		u, err := url.Parse(link)
		if err != nil {
			t.Errorf("%s: %v", link, err)
			continue
		}
		if u.RawQuery != "" || u.Fragment != "" {
			t.Errorf("%s: the name spilled into the query or fragment", link)
			continue
		}
		seg, ok := strings.CutPrefix(u.EscapedPath(), "/users/")
		if got, err := url.PathUnescape(seg); !ok || err != nil || got != name || strings.Contains(seg, "/") {
			t.Errorf("%s: last path segment %q, want %q", link, seg, name)
		}
	}
}
