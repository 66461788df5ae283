package cli

import (
	"context"
	"fmt"

	"ratchet/internal/scripted"
)

// scriptedCommand serves the demo's scripted model until interrupted. It
// prints the URL to use as MODEL_URL on its first line.
func scriptedCommand(ctx context.Context) error {
	srv, err := scripted.Start()
	if err != nil {
		return err
	}
	defer srv.Close()
	fmt.Println(srv.URL)
	<-ctx.Done()
	return nil
}
