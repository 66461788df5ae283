// Command ratchet is everything around the anchor: the evolver, the task
// validator and the front doors; see package cli.
package main

import (
	"os"

	"ratchet/door"
	"ratchet/internal/cli"
	"ratchet/internal/show"
)

func main() {
	door.HideCredentials() // out of /proc/PID/environ, where host commands could read them
	done := show.Guard()   // all it and its children print passes the sanitiser (#21)
	code := cli.Main(os.Args[1:])
	done()
	os.Exit(code)
}
