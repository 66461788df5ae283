// Package directions builds links to the maps service.
package directions

import "strconv"

// DirectionsURL returns the link to page step of the step-by-step directions for dest.
func DirectionsURL(dest string, step int) string {
	return "https://maps.example.com/dir?to=" + dest + "&step=" + strconv.Itoa(step)
}
