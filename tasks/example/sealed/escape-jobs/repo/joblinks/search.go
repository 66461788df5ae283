// Package joblinks builds links to the job board.
package joblinks

import "strconv"

// JobsURL returns the link to page page of the job listings for title.
func JobsURL(title string, page int) string {
	return "https://jobs.example.org/find?title=" + title + "&p=" + strconv.Itoa(page)
}
