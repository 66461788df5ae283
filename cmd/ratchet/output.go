package main

import (
	"bytes"
	"encoding/json"
	"fmt"

	"ratchet/internal/show"
)

// printJSON prints v as JSON on stdout, its strings through the sanitiser:
// a record's request, answer, calls and observations are the agent's.
func printJSON(v any) error {
	b, err := show.JSON(v)
	if err == nil {
		_, err = fmt.Println(string(b))
	}
	return err
}

// printJSONIndented is printJSON for a person: indented.
func printJSONIndented(v any) error {
	b, err := show.JSON(v)
	var out bytes.Buffer
	if err == nil {
		err = json.Indent(&out, b, "", "  ")
	}
	if err == nil {
		_, err = fmt.Println(out.String())
	}
	return err
}
