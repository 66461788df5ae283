package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"
)

func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, withStatus(exitInfra, fmt.Errorf("listen on %s: %w; pick another --addr", addr, err))
	}
	return ln, nil
}

// serveOn serves h on ln until ctx ends, saying where on stderr.
func serveOn(ctx context.Context, ln net.Listener, h http.Handler, what string) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { <-ctx.Done(); srv.Close() }()
	fmt.Fprintf(os.Stderr, "ratchet: %s on http://%s\n", what, ln.Addr())
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
