package main

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"ratchet/door/doortest"
	"ratchet/harness/fakemodel"
)

func TestRunAndSessionsCommands(t *testing.T) {
	steps := make([]fakemodel.Step, 50)
	for i := range steps {
		steps[i] = fakemodel.Step{Func: doortest.Fixer}
	}
	srv, err := fakemodel.Start(steps...)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	t.Setenv("MODEL_URL", srv.URL)
	t.Setenv("MODEL_NAME", "scripted")
	t.Setenv("MODEL_API", "openai")
	_, file, _, _ := runtime.Caller(0)
	harness := filepath.Join(filepath.Dir(file), "..", "..", "harness")
	home, proj := t.TempDir(), doortest.Project(t)
	ctx := context.Background()
	if err := run(ctx, []string{"run", "--project", proj, "--home", home, "--harness", harness, "Double", "is", "wrong"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "m.go")); string(b) != doortest.Fixed {
		t.Error("ratchet run did not fix the project")
	}
	if err := run(ctx, []string{"sessions", "--home", home}); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"run", "--home", home, "--harness", harness}, {"run", "--project", "/no/such", "--home", home, "--harness", harness, "x"}, {"nope"}} {
		if err := run(ctx, args); err == nil {
			t.Errorf("%v succeeded", args)
		} else if strings.Contains(err.Error(), "panic") {
			t.Errorf("%v: %v", args, err)
		}
	}
}
