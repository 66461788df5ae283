// Command anchor is Ratchet's frozen judge; see package anchor.
package main

import (
	"os"

	"ratchet/anchor"
)

func main() { os.Exit(anchor.Main(os.Args[1:])) }
