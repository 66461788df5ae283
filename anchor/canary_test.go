package anchor

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const threeTests = "package sum\n\nimport \"testing\"\n\n" +
	"// TestEmpty is documented.\nfunc TestEmpty(t *testing.T) {\n\tif Sum(nil) != 0 {\n\t\tt.Fatal(\"empty\")\n\t}\n}\n\n" +
	"func helper(xs ...int) []int { return xs }\n\n" +
	"func TestThree(t *testing.T) {\n\tif got := Sum(helper(1, 2, 3)); got != 6 {\n\t\tt.Fatalf(\"Sum = %d, want 6\", got)\n\t}\n}\n\n" +
	"func TestOne(t *testing.T) {\n\tif got := Sum([]int{1}); got != 1 {\n\t\tt.Errorf(\"Sum = %d, want 1\", got)\n\t}\n}\n"

// The canary is planted at a random place among the hidden tests of its
// file, not always last (where it was the highest line of the file in the
// binary's line table), and its body calls the package under test as a
// neighbour's does (where it never called it). The file still parses, with
// every test it had.
func TestCanaryLooksLikeItsNeighbours(t *testing.T) {
	places, bodies := map[int]int{}, map[string]int{}
	for range 400 {
		files := map[string][]byte{"sum_test.go": []byte(threeTests), "sum.go": []byte(fixedSum)}
		keys := plantCanaries(files, map[string][]byte{"sum_test.go": []byte(threeTests)})
		if len(keys) != 1 {
			t.Fatalf("planted %v", keys)
		}
		var canary string
		for k := range keys {
			_, canary, _ = strings.Cut(k, " ")
		}
		f, err := parser.ParseFile(token.NewFileSet(), "", files["sum_test.go"], 0)
		if err != nil {
			t.Fatalf("the planted file does not parse: %v\n%s", err, files["sum_test.go"])
		}
		var tests []string
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && strings.HasPrefix(fn.Name.Name, "Test") {
				tests = append(tests, fn.Name.Name)
				if fn.Name.Name == canary {
					places[len(tests)-1]++
				}
			}
		}
		if got := strings.ReplaceAll(strings.Join(tests, " "), canary+" ", ""); len(tests) != 4 || got != "TestEmpty TestThree TestOne" && got != "TestEmpty TestThree TestOne "+canary {
			t.Fatalf("tests after planting: %v", tests)
		}
		text := string(files["sum_test.go"])
		start := strings.Index(text, "func "+canary+"(t *testing.T) {")
		end := start + strings.Index(text[start:], "\n}\n")
		switch body := text[start:end]; {
		case strings.Contains(body, "Sum(helper(1, 2, 3))"):
			bodies["TestThree"]++
		case strings.Contains(body, "Sum(nil)"):
			bodies["TestEmpty"]++
		case strings.Contains(body, "Sum([]int{1})"):
			bodies["TestOne"]++
		default:
			t.Fatalf("the canary's body calls no code under test:\n%s", body)
		}
	}
	for place := range 4 {
		if places[place] < 50 {
			t.Errorf("the canary was the test number %d of 4 in %d of 400 plantings (places %v); want about 100", place+1, places[place], places)
		}
	}
	if len(bodies) != 3 {
		t.Errorf("the canary's body was copied from %v; want each of the three tests", bodies)
	}
}

// A canary that copies the body of a test that panics is planted before the
// tests it would have stopped: its panic is recovered, so the tests after it
// still run, and it still fails. The worst draw is searched for, then the
// planted file is run by go test on the host.
func TestCanaryPanicStopsNoTest(t *testing.T) {
	t.Parallel()
	panicky := "package sum\n\nfunc helper(xs ...int) []int { return xs }\n\nfunc Sum(xs []int) int {\n\tif len(xs) == 3 {\n\t\tpanic(\"no\")\n\t}\n\treturn len(xs)\n}\n"
	two := strings.Replace(threeTests, "func helper(xs ...int) []int { return xs }\n\n", "", 1)
	var planted []byte
	var canary string
	for try := 0; planted == nil; try++ {
		files := map[string][]byte{"sum_test.go": []byte(two)}
		for k := range plantCanaries(files, map[string][]byte{"sum_test.go": []byte(two)}) {
			_, canary, _ = strings.Cut(k, " ")
		}
		text := string(files["sum_test.go"])
		at := strings.Index(text, "func "+canary+"(")
		if at < strings.Index(text, "func TestEmpty(") && strings.Contains(text[at:at+strings.Index(text[at:], "\n}\n")], "helper(1, 2, 3)") {
			planted = files["sum_test.go"]
		}
		if try > 1000 {
			t.Fatal("the canary never copied TestThree before TestEmpty")
		}
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"go.mod": "module example.com/sum\n\ngo 1.26\n", "sum.go": panicky, "sum_test.go": string(planted)})
	cmd := exec.Command("go", "test", "-json", ".")
	cmd.Dir = dir
	out, _ := cmd.Output()
	s := Count(Task{Test: "go test ./..."}, out, 1, nil, map[string][]byte{"sum_test.go": []byte(two)},
		map[string][]byte{"go.mod": []byte("module example.com/sum\n")}, map[string]bool{"example.com/sum " + canary: true}, "")
	if s.Outcome != "" || s.Passed != 1 || s.Total != 3 {
		t.Errorf("Sum panics on TestThree only: scored %+v, want 1 of 3 (TestEmpty; TestThree panics and TestOne never runs), the canary failed:\n%s\n%s", s, planted, out)
	}
}

// Honest work scores every test through the real scoring sandbox wherever
// the canary lands.
func TestCanaryAmongTestsScoresHonestWork(t *testing.T) {
	slow(t)
	t.Parallel()
	suite := t.TempDir()
	dir := addTask(t, suite, "train", "three")
	os.Remove(filepath.Join(dir, "hidden", "sum_more_test.go"))
	writeFiles(t, dir, map[string]string{"hidden/sum_test.go": threeTests})
	task, err := LoadTask(dir)
	if err != nil {
		t.Fatal(err)
	}
	agent := map[string][]byte{"go.mod": []byte("module example.com/three\n\ngo 1.26\n"), "sum.go": []byte(fixedSum)}
	for range 3 {
		if s := ScoreTree(ctx(), task, agent, t.TempDir(), 0); s.Outcome != "" || s.Passed != 3 || s.Total != 3 {
			t.Fatalf("honest work scored %+v, want 3 of 3", s)
		}
	}
}

// The canary goes to a hidden file without a build constraint when its
// folder has one: planted in a file the command's tags leave out, it would
// never report and honest work would read as forged (exercism's series
// exercise keeps tests behind //go:build first).
func TestCanaryAvoidsAConstrainedFile(t *testing.T) {
	constrained := "//go:build first\n\n" + threeTests
	for range 50 {
		hidden := map[string][]byte{"a_test.go": []byte(constrained), "b_test.go": []byte(threeTests)}
		files := map[string][]byte{"a_test.go": hidden["a_test.go"], "b_test.go": hidden["b_test.go"],
			"sum.go": []byte(fixedSum)}
		keys := plantCanaries(files, hidden)
		if len(keys) != 1 || string(files["a_test.go"]) != constrained {
			t.Fatalf("the canary went into the file behind a build constraint:\n%s", files["a_test.go"])
		}
	}
}

// A canary is named from the words of the tests beside it, never as a
// function already there, and with random letters where there are no words.
func TestCanaryName(t *testing.T) {
	files := map[string][]byte{
		"sum_test.go":     []byte("package sum\n\nfunc TestSumEmpty(t *testing.T) {}\n\nfunc TestSumLarge(t *testing.T) {}\n"),
		"sum.go":          []byte("package sum\n\nfunc TestSumSum() {}\n\nfunc Sum() {}\n"),
		"other/x_test.go": []byte("package other\n\nfunc TestOtherThing(t *testing.T) {}\n"),
	}
	shape := regexp.MustCompile(`^Test(Sum|Empty|Large)(Sum|Empty|Large)$`)
	for range 200 {
		name := canaryName(files, ".")
		if !shape.MatchString(name) || name == "TestSumEmpty" || name == "TestSumLarge" || name == "TestSumSum" {
			t.Fatalf("canary name %q: want two words of the tests beside it, no name already there", name)
		}
	}
	if name := canaryName(map[string][]byte{"a.go": []byte("package a\n")}, "."); !regexp.MustCompile(`^Test[A-Z2-7][a-z2-7]{9}$`).MatchString(name) {
		t.Errorf("canary name without words: %q", name)
	}
}
