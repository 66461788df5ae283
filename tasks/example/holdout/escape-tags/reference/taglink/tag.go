// Package taglink builds links to tag pages.
package taglink

import "net/url"

// TagURL returns the link to the tag page of name.
func TagURL(name string) string {
	return "https://photos.example.com/tag/" + url.PathEscape(name)
}
