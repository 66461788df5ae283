package welcome

import "fmt"

// Banner returns the welcome banner line for a name as the user typed it.
func Banner(name string) string {
	return fmt.Sprintf("Welcome aboard, %s.", tidy(name))
}
