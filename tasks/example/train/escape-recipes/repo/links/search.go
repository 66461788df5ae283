// Package links builds links to the recipe site.
package links

import "strconv"

// SearchURL returns the link to page page of the search results for query.
func SearchURL(query string, page int) string {
	return "https://recipes.example.com/search?q=" + query + "&page=" + strconv.Itoa(page)
}
