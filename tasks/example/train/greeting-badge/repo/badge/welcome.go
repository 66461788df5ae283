package badge

import "fmt"

// Welcome returns the welcome line for a name as the user typed it.
func Welcome(name string) string {
	return fmt.Sprintf("Welcome, %s!", Clean(name))
}
