package main

import (
	"context"
	"os"
	"strings"
	"testing"
)

func TestFleetCommandErrors(t *testing.T) {
	stdin, err := os.CreateTemp(t.TempDir(), "job")
	if err != nil {
		t.Fatal(err)
	}
	stdin.WriteString("not json")
	stdin.Seek(0, 0)
	old := os.Stdin
	os.Stdin = stdin
	defer func() { os.Stdin = old }()
	ctx := context.Background()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"fleet"}, "usage: ratchet fleet"},
		{[]string{"fleet", "nope"}, `unknown fleet command "nope"`},
		{[]string{"fleet", "worker", "--jobs", "0"}, "must be positive"},
		{[]string{"fleet", "status", "--bogus"}, "flag provided but not defined"},
		{[]string{"fleet", "submit", "--nats", "nats://127.0.0.1:1"}, "read the job on stdin"},
		{[]string{"fleet", "status", "--nats", "nats://127.0.0.1:1"}, "connect to NATS at nats://127.0.0.1:1"},
	} {
		err := run(ctx, c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v; want %q", c.args, err, c.want)
		}
	}
}
