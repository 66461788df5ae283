// Package channels describes notification channels.
package channels

import "strings"

// Channels is a set of notification channels, combined with |.
type Channels uint8

// The notification channels.
const (
	Email Channels = iota
	SMS
	Push
	Slack
	Pager
)

var names = []struct {
	f    Channels
	name string
}{{Email, "email"}, {SMS, "sms"}, {Push, "push"}, {Slack, "slack"}, {Pager, "pager"}}

// Has reports whether p holds every flag of q.
func (p Channels) Has(q Channels) bool { return p&q == q }

// String lists the flags of p by name, in the order above, joined by
// "+"; it is "none" for an empty set.
func (p Channels) String() string {
	var parts []string
	for _, n := range names {
		if p.Has(n.f) {
			parts = append(parts, n.name)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "+")
}
