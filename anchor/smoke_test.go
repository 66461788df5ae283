package anchor

import "testing"

func TestSmokeRun(t *testing.T) {
	e := newEnv(t, repeat(fixer(""), 10)...)
	dir := addTask(t, e.suite, "train", "sum-one")
	hash, err := e.a.Snapshot(harnessDir(t))
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.a.RunTask(ctx(), hash, dir, false)
	t.Logf("%+v err=%v", r, err)
	if r.Score != 1 {
		t.Fatal("want score 1")
	}
}
