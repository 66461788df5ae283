// Command ratchet is everything around the anchor: the evolver, the task
// validator and the front doors; see package cli.
package main

import (
	"os"

	"ratchet/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:])) }
