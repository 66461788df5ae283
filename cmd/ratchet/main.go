// Command ratchet is everything around the anchor: the evolver, the task
// validator and the front doors; see package cli.
package main

import (
	"os"

	"ratchet/door"
	"ratchet/internal/cli"
)

func main() {
	door.HideCredentials() // out of /proc/PID/environ, where host commands could read them
	os.Exit(cli.Main(os.Args[1:]))
}
