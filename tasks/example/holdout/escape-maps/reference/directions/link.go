// Package directions builds links to the maps service.
package directions

import (
	"net/url"
	"strconv"
)

// DirectionsURL returns the link to page step of the step-by-step directions for dest.
func DirectionsURL(dest string, step int) string {
	q := url.Values{}
	q.Set("to", dest)
	q.Set("step", strconv.Itoa(step))
	return "https://maps.example.com/dir?" + q.Encode()
}
