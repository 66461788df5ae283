package cli

import (
	"context"
	"errors"
)

func evolveCommand(ctx context.Context, args []string) error {
	return errors.New("evolve: not built yet")
}
