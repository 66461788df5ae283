// Package profilelink builds links to user profiles.
package profilelink

import "net/url"

// ProfileURL returns the link to the profile page of name.
func ProfileURL(name string) string {
	return "https://social.example.org/users/" + url.PathEscape(name)
}
