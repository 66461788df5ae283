package toast

import "fmt"

// Toast returns the toast line for a name as the user typed it.
func Toast(name string) string {
	return fmt.Sprintf("Raise your glasses to %s!", properName(name))
}
