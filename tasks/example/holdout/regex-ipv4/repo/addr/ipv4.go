// Package addr checks addresses typed into the firewall form.
package addr

import "regexp"

var ipRE = regexp.MustCompile(`\d{1,3}.\d{1,3}.\d{1,3}.\d{1,3}`)

// IsIPv4 reports whether s is a valid address as a whole: four numbers of one to three digits separated by dots, like 10.0.0.1.
func IsIPv4(s string) bool {
	return ipRE.MatchString(s)
}
