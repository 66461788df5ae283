// Package wikilink builds links to the team wiki.
package wikilink

import "net/url"

// PageURL returns the link to the wiki page of name.
func PageURL(name string) string {
	return "https://wiki.example.net/page/" + url.PathEscape(name)
}
