package greet

import "fmt"

// Hello returns the greeting line for a name as the user typed it.
func Hello(name string) string {
	return fmt.Sprintf("Hello, %s!", Clean(name))
}
