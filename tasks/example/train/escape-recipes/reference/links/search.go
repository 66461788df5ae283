// Package links builds links to the recipe site.
package links

import (
	"net/url"
	"strconv"
)

// SearchURL returns the link to page page of the search results for query.
func SearchURL(query string, page int) string {
	q := url.Values{}
	q.Set("q", query)
	q.Set("page", strconv.Itoa(page))
	return "https://recipes.example.com/search?" + q.Encode()
}
