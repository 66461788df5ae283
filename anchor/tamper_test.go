package anchor

import "testing"

// The screen's check for the testing package compared the import's
// literal text: a raw string literal, or an escape, names the same package.
func TestScreenSeesTestingHoweverSpelled(t *testing.T) {
	for _, imp := range []string{"import `testing`", `import "t\x65sting"`, `import "\u0074esting"`} {
		src := "package sum\n\n" + imp + "\n\nvar _ = testing.Short\n"
		if reason := screen(map[string][]byte{"x.go": []byte(src)}, nil); reason == "" {
			t.Errorf("%s in a non-test file passes the screen", imp)
		}
	}
}

// The screen marked honest code forged: a package variable naming a
// syscall constant, a parser of go test's output. A forged run scores 0
// and rejects its candidate naming a forgery, so a false mark is a false
// record (and punishes a harness for the task's subject matter).
func TestScreenPassesHonestCode(t *testing.T) {
	for _, src := range []string{
		"package files\n\nimport \"syscall\"\n\nvar errMissing = syscall.ENOENT\n",
		"package report\n\n// passPrefix starts a passed test's line in go test -v output.\nconst passPrefix = \"--- PASS\"\n",
	} {
		if reason := screen(map[string][]byte{"x.go": []byte(src)}, nil); reason != "" {
			t.Errorf("honest code marked forged: %s", reason)
		}
	}
}
