package mcpdoor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"ratchet/door"
	"ratchet/door/doortest"
)

// TestAskSendsProgressToTheSDKClient calls ask through the official Go SDK's
// client with a progress token and no project: the door's only root is the
// project, so ask works on it, and the client receives progress
// notifications for the harness, the test command, the tool call and the
// tests before and after, with rising progress figures.
func TestAskSendsProgressToTheSDKClient(t *testing.T) {
	t.Parallel()
	proj := doortest.Project(t)
	d, _ := doortest.Open(t, doortest.Fixer, false, func(c *door.Config) { c.Roots = []string{proj} })
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := New(d, "").Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	client := mcp.NewClient(&mcp.Implementation{Name: "test-editor", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, req.Params)
		}})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"request": "Double is wrong; fix it."}}
	params.SetProgressToken("ask-1")
	res, err := cs.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("ask without a project on a one-root door: %v %+v", err, res)
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "m.go")); string(b) != doortest.Fixed {
		t.Error("the project was not fixed")
	}
	// The SDK's client hands notifications to the handler on its own
	// queue, so the call's result can arrive before the handler has seen
	// the last line sent ahead of it: wait for that line, within reason.
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		n := len(got)
		last := n > 0 && strings.HasPrefix(got[n-1].Message, "tests after:")
		mu.Unlock()
		if last {
			break
		}
	}
	mu.Lock()
	defer mu.Unlock()
	var lines []string
	for i, p := range got {
		if p.ProgressToken != "ask-1" || p.Progress != float64(i+1) {
			t.Errorf("notification %d: token %v progress %v", i, p.ProgressToken, p.Progress)
		}
		lines = append(lines, p.Message)
	}
	all := strings.Join(lines, "\n")
	for _, want := range []string{"harness: ", "test command: go test ./... (detected)", "tests before: fail", "step 1: write_file", "tests after: pass"} {
		if !strings.Contains(all, want) {
			t.Errorf("no progress notification with %q; got:\n%s", want, all)
		}
	}
}
