package tasks

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// The validator says why a reference fails when scoring says it: a
// reference that does not build is named by its first compiler line, next
// to BAD. A reference that calls a helper its task's hidden test file
// declares (as go test allows) is good.
func TestValidateSaysWhyTheReferenceFails(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("validates in the anchor's sandboxes: slow; run without -short")
	}
	suite := t.TempDir()
	helper := "package m\n\nimport \"testing\"\n\n// Twice is the tests' helper; the code may call it too.\nfunc Twice(x int) int { return x + x }\n\n" +
		"func TestFour(t *testing.T) {\n\tif Double(4) != 8 {\n\t\tt.Fatal(Double(4))\n\t}\n}\n"
	task(t, suite, "train", "calls-a-test-helper", map[string]string{"repo/helper_test.go": helper, "hidden/helper_test.go": helper,
		"reference/m.go": "package m\n\nfunc Double(x int) int { return Twice(x) }\n"})
	task(t, suite, "train", "does-not-build", map[string]string{"reference/m.go": "package m\n\nfunc Double(x int) int { return Triple(x) }\n"})
	var out bytes.Buffer
	results, err := Validate(context.Background(), suite, 2, &out)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", out.String())
	want := map[string]string{"calls-a-test-helper": "", "does-not-build": "the reference does not pass every test: no hidden test reported: ./m.go:3:"}
	for _, r := range results {
		w := want[r.ID]
		if (w == "") != (r.Problem == "") || !strings.Contains(r.Problem, w) {
			t.Errorf("%s: problem %q, want %q", r.ID, r.Problem, w)
		}
	}
	if !strings.Contains(out.String(), "BAD: the reference does not pass every test: no hidden test reported: ./m.go:3:") ||
		!strings.Contains(out.String(), "undefined: Triple") {
		t.Errorf("the table does not say why the reference fails:\n%s", out.String())
	}
}
