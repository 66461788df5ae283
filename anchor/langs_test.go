package anchor

import (
	"cmp"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Rust, JavaScript, C++ and Java tasks scored by the anchor's own runners
// (runners.go), through ScoreTree and the real bubblewrap sandbox. In each
// language add is wrong (a - b + 1); of three hidden tests (one of them
// skipped as exercism ships it: ignored, xtest, disabled, behind a define)
// the buggy code passes none and the fix all three. The attacks on each
// runner are archives (testdata/attacks/runners-*, canary-cargo-*, ...,
// played on these tasks); the forgers here plant files whose names begin
// with a dot, which the archives' planter, a harness snapshot, cannot
// carry. Each would score 3/3 (or be caught) if what it planted were read:
// it scores what the buggy code earns, 0.

type langTask struct {
	runner  string
	test    string            // the task's command
	needs   []string          // files the runner needs on the machine
	repo    map[string]string // the buggy tree, its tests the public ones
	fix     map[string]string
	forgers map[string]map[string]string // planted on the buggy tree: a forger each
}

// okEvents is libtest's JSON for the three tests, passed.
var okEvents = "{ \"type\": \"test\", \"event\": \"ok\", \"name\": \"zero\" }\n" +
	"{ \"type\": \"test\", \"event\": \"ok\", \"name\": \"two\" }\n" +
	"{ \"type\": \"test\", \"event\": \"ok\", \"name\": \"negative\" }\n"

var catchMain = "#define CATCH_CONFIG_MAIN\n#include \"catch.hpp\"\n"

var langTasks = []langTask{{
	runner: "cargo", test: "cargo test", needs: []string{cmp.Or(rustRoot(), "/usr") + "/bin/cargo"},
	repo: map[string]string{
		"Cargo.toml": "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
		"src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 {\n    a - b + 1\n}\n",
		"tests/calc.rs": "use calc::*;\n\n#[test]\nfn zero() {\n    assert_eq!(add(0, 0), 0);\n}\n\n" +
			"#[test]\n#[ignore]\nfn two() {\n    assert_eq!(add(1, 1), 2);\n}\n\n" +
			"mod more {\n    use calc::*;\n    #[test]\n    #[ignore]\n    fn negative() {\n" +
			"        assert_eq!(add(-1, -2), -3);\n    }\n}\n",
	},
	fix: map[string]string{"src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n"},
	forgers: map[string]map[string]string{
		"a test runner in .cargo/config.toml": {".cargo/config.toml": "[target.x86_64-unknown-linux-gnu]\n" +
			"runner = [\"/bin/sh\", \"-c\", \"for t in zero two negative; do echo '{ \\\"type\\\": \\\"test\\\", " +
			"\\\"event\\\": \\\"ok\\\", \\\"name\\\": \\\"'$t'\\\" }'; done\"]\n"},
		"a planted report, the build broken": {"src/lib.rs": "broken", ".anchor-cargo.json": okEvents},
	},
}, {
	runner: "jest", test: "npx jest", needs: []string{"/usr/lib/ratchet-js/node_modules/jest/bin/jest.js"},
	repo: map[string]string{
		"package.json": "{\"name\": \"calc\", \"private\": true}\n",
		"calc.js":      "export const add = (a, b) => a - b + 1;\n",
		"calc.spec.js": "import { add } from './calc';\n\ndescribe('add', () => {\n" +
			"  test('zero', () => {\n    expect(add(0, 0)).toEqual(0);\n  });\n\n" +
			"  xtest('two', () => {\n    expect(add(1, 1)).toEqual(2);\n  });\n\n" +
			"  test(\"negative\", () => {\n    expect(add(-1, -2)).toEqual(-3);\n  });\n});\n",
	},
	fix: map[string]string{"calc.js": "export const add = (a, b) => a + b;\n"},
	forgers: map[string]map[string]string{
		"a planted report, the code broken": {"calc.js": "export broken", ".anchor-jest.json": "{\"testResults\": " +
			"[{\"assertionResults\": [{\"title\": \"zero\", \"status\": \"passed\"}, {\"title\": \"two\", " +
			"\"status\": \"passed\"}, {\"title\": \"negative\", \"status\": \"passed\"}]}]}\n"},
	},
}, {
	runner: "catch2", test: "g++ -std=c++17 -I. -o /tmp/t calc.cpp calc_test.cpp test/tests-main.cpp && /tmp/t",
	needs: []string{"/usr/bin/g++", "/usr/include/catch2/catch.hpp"},
	repo: map[string]string{
		"calc.h":   "#pragma once\nint add(int a, int b);\n",
		"calc.cpp": "#include \"calc.h\"\nint add(int a, int b) { return a - b + 1; }\n",
		"calc_test.cpp": "#include \"calc.h\"\n#include \"test/catch.hpp\"\n\nTEST_CASE(\"zero\") {\n" +
			"    REQUIRE(add(0, 0) == 0);\n}\n\n#if defined(EXERCISM_RUN_ALL_TESTS)\nTEST_CASE(\"two\") {\n" +
			"    REQUIRE(add(1, 1) == 2);\n}\n\nTEST_CASE(\"negative\") {\n    REQUIRE(add(-1, -2) == -3);\n}\n#endif\n",
		"test/tests-main.cpp": catchMain,
		"CMakeLists.txt":      "cmake_minimum_required(VERSION 3.5)\n",
	},
	fix: map[string]string{"calc.cpp": "#include \"calc.h\"\nint add(int a, int b) { return a + b; }\n"},
	forgers: map[string]map[string]string{
		"a planted report, the build broken": {"calc.cpp": "broken", ".anchor-catch2.xml": "<testsuites><testsuite>" +
			"<testcase name=\"zero\"/><testcase name=\"two\"/><testcase name=\"negative\"/></testsuite></testsuites>"},
	},
}, {
	runner: "junit", test: "gradle test", needs: []string{"/usr/bin/javac", "/usr/share/java/junit-platform-console-standalone.jar",
		"/usr/share/java/assertj-core.jar"},
	repo: map[string]string{
		"build.gradle":            "apply plugin: 'java'\n",
		"src/main/java/Calc.java": "public class Calc {\n    public static int add(int a, int b) {\n        return a - b + 1;\n    }\n}\n",
		"src/test/java/CalcTest.java": "import org.junit.jupiter.api.Disabled;\nimport org.junit.jupiter.api.Test;\n\n" +
			"import static org.assertj.core.api.Assertions.assertThat;\n\npublic class CalcTest {\n" +
			"    @Test\n    public void zero() {\n        assertThat(Calc.add(0, 0)).isEqualTo(0);\n    }\n\n" +
			"    @Disabled(\"Remove to run test\")\n    @Test\n    public void two() {\n" +
			"        assertThat(Calc.add(1, 1)).isEqualTo(2);\n    }\n\n" +
			"    @Test\n    public void negative() {\n        assertThat(Calc.add(-1, -2)).isEqualTo(-3);\n    }\n}\n",
	},
	fix: map[string]string{"src/main/java/Calc.java": "public class Calc {\n    public static int add(int a, int b) {\n" +
		"        return a + b;\n    }\n}\n"},
	forgers: map[string]map[string]string{
		"a planted report, the build broken": {"src/main/java/Calc.java": "broken", ".anchor-junit.xml": "<testsuite>" +
			"<testcase name=\"zero()\"/><testcase name=\"two()\"/><testcase name=\"negative()\"/></testsuite>"},
	},
}}

// write writes the task of one language into a suite of its own.
func (lt langTask) write(t *testing.T) Task {
	t.Helper()
	task, err := LoadTask(lt.writeIn(t, t.TempDir(), lt.runner))
	if err != nil {
		t.Fatal(err)
	}
	if r := task.runner(); r == nil || r.name != lt.runner {
		t.Fatalf("%q is not scored by %s", lt.test, lt.runner)
	}
	return task
}

// writeIn writes the task of one language as suite/train/id: repo/ as
// given, hidden/ its tests with every skip taken out (as the importer takes
// them out), reference/ the fix. It skips the test when the machine lacks
// what the runner needs.
func (lt langTask) writeIn(t *testing.T, suite, id string) string {
	t.Helper()
	for _, need := range lt.needs {
		if _, err := os.Stat(need); err != nil {
			t.Skipf("needs %s (scripts/deps.sh installs it)", need)
		}
	}
	dir := filepath.Join(suite, "train", id)
	files := map[string]string{"task.toml": "prompt = \"add is wrong. Fix it.\"\ntest = \"" + lt.test + "\"\n"}
	unskip := strings.NewReplacer("#[ignore]\n", "", "xtest(", "test(", "@Disabled(\"Remove to run test\")\n", "")
	for name, b := range lt.repo {
		files["repo/"+name] = b
		if runnerOf(lt.runner).test.MatchString(name) || strings.HasPrefix(name, "test/") {
			files["hidden/"+name] = unskip.Replace(b)
		}
	}
	if lt.runner == "catch2" {
		files["hidden/test/catch.hpp"] = string(must(os.ReadFile("/usr/include/catch2/catch.hpp")))
	}
	for name, b := range lt.fix {
		files["reference/"+name] = b
	}
	writeFiles(t, dir, files)
	return dir
}

// langTaskOf is the language task a runner scores, for attack archives
// (task: cargo, jest, catch2 or junit).
func langTaskOf(runner string) (langTask, bool) {
	for _, lt := range langTasks {
		if lt.runner == runner {
			return lt, true
		}
	}
	return langTask{}, false
}

func runnerOf(name string) *runner {
	for i := range runners {
		if runners[i].name == name {
			return &runners[i]
		}
	}
	panic(name)
}

// scoreLang scores the task's repo with changes applied.
func scoreLang(t *testing.T, task Task, changes map[string]string) Scored {
	t.Helper()
	agent := must(ReadTree(filepath.Join(task.Dir, "repo"), false))
	for name, b := range changes {
		agent[name] = []byte(b)
	}
	s := ScoreTree(ctx(), task, agent, filepath.Join(t.TempDir(), "score"), 0)
	t.Logf("%d of %d, outcome %q: %s", s.Passed, s.Total, s.Outcome, s.Error)
	if (s.Error != "" || os.Getenv("ANCHOR_TEST_DEBUG") != "") && s.Report != nil {
		t.Logf("output: %.3000s\nreport: %.3000s", s.Report.Out, s.Report.JUnit)
	}
	return s
}

func TestLanguageRunners(t *testing.T) {
	slow(t)
	for _, lt := range langTasks {
		t.Run(lt.runner, func(t *testing.T) {
			t.Parallel()
			task := lt.write(t)
			if s := scoreLang(t, task, nil); s.Passed != 0 || s.Total != 3 || s.Outcome != "" {
				t.Errorf("the buggy tree scored %d/%d %q %s, want 0/3", s.Passed, s.Total, s.Outcome, s.Error)
			}
			s := scoreLang(t, task, lt.fix)
			if s.Passed != 3 || s.Total != 3 || s.Outcome != "" {
				t.Fatalf("the fix scored %d/%d %q %s, want 3/3", s.Passed, s.Total, s.Outcome, s.Error)
			}
			// ratchet verify counts the stored report again with the task as
			// LoadTask reads it.
			hidden := must(ReadTree(filepath.Join(task.Dir, "hidden"), true))
			again := Count(task, s.Report.Out, s.Report.Exit, s.Report.JUnit, hidden, s.Report.Mods, s.Report.Canaries, "")
			if again.Passed != 3 || again.Total != 3 || again.Outcome != "" {
				t.Errorf("the stored report counts %d/%d %q again", again.Passed, again.Total, again.Outcome)
			}
			for name, files := range lt.forgers {
				if s := scoreLang(t, task, files); s.Passed != 0 || s.Total != 3 || s.Outcome != "" {
					t.Errorf("%s: scored %d/%d %q %s, want the buggy tree's 0/3", name, s.Passed, s.Total, s.Outcome, s.Error)
				}
			}
		})
	}
}

// The runners' tools run in the sandbox as they do on the machine: each
// command is a real one (the check that the tests above do not skip for a
// reason nobody sees).
func TestLanguageToolsInTheSandbox(t *testing.T) {
	slow(t)
	if os.Getenv("CI") == "" {
		t.Skip("CI only: a developer's machine may lack a language")
	}
	for _, lt := range langTasks {
		for _, need := range lt.needs {
			if _, err := os.Stat(need); err != nil {
				t.Errorf("%s: %s is missing; scripts/deps.sh should install it", lt.runner, need)
			}
		}
	}
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Error("bwrap is missing")
	}
}
