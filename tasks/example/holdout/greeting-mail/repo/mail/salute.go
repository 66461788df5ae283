package mail

import "fmt"

// Salute returns the salutation line for a name as the user typed it.
func Salute(name string) string {
	return fmt.Sprintf("Dear, %s!", Clean(name))
}
