// Package joblinks builds links to the job board.
package joblinks

import (
	"net/url"
	"strconv"
)

// JobsURL returns the link to page page of the job listings for title.
func JobsURL(title string, page int) string {
	q := url.Values{}
	q.Set("title", title)
	q.Set("p", strconv.Itoa(page))
	return "https://jobs.example.org/find?" + q.Encode()
}
