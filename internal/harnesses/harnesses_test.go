package harnesses

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"ratchet/anchor"
)

func repoHarness() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "harness")
}

// The embedded baseline is harness/ as it is now; when this fails, run
// go generate ./internal/harnesses and commit baseline.tar.
func TestBaselineIsUpToDate(t *testing.T) {
	files, err := anchor.ReadTree(repoHarness(), true)
	if err != nil {
		t.Fatal(err)
	}
	b, err := BuiltIn()
	if err != nil {
		t.Fatal(err)
	}
	if want := anchor.HashOf(files); b.Hash != want {
		for name, body := range files {
			if string(b.Files[name]) != string(body) {
				t.Errorf("%s differs from the built-in baseline", name)
			}
		}
		for name := range b.Files {
			if files[name] == nil {
				t.Errorf("%s is in the built-in baseline but not in harness/", name)
			}
		}
		t.Fatalf("built-in baseline %s, harness/ %s: run go generate ./internal/harnesses and commit baseline.tar", b.Hash, want)
	}
	// The archive is the very tar that anchor.HashOf hashes: deterministic.
	if sum := sha256.Sum256(baselineTar); hex.EncodeToString(sum[:]) != b.Hash {
		t.Errorf("baseline.tar is not the deterministic archive of its files; regenerate it with go generate")
	}
	if !strings.HasPrefix(b.String(), "built-in baseline (") {
		t.Errorf("String() = %q", b.String())
	}
}

func TestSnapshotRefusesTampering(t *testing.T) {
	files := map[string][]byte{"manifest.toml": []byte("editable = []\n"), "main.go": []byte("package main\n\nfunc main() {}\n")}
	hash := anchor.HashOf(files)
	tests := []struct {
		name   string
		tamper func(dir string)
		want   string
	}{
		{"intact", func(string) {}, ""},
		{"file changed", func(dir string) {
			os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() { panic(1) }\n"), 0o644)
		}, "changed after the anchor accepted it"},
		{"file added", func(dir string) { os.WriteFile(filepath.Join(dir, "extra.go"), []byte("package main\n"), 0o644) }, "changed after the anchor accepted it"},
		{"file removed", func(dir string) { os.Remove(filepath.Join(dir, "main.go")) }, "changed after the anchor accepted it"},
		{"symlink", func(dir string) {
			os.Remove(filepath.Join(dir, "main.go"))
			os.Symlink("/etc/passwd", filepath.Join(dir, "main.go"))
		}, "not a regular file"},
		{"missing", func(dir string) { os.RemoveAll(dir) }, "cannot be read"},
	}
	for _, tt := range tests {
		ledger := t.TempDir()
		dir := filepath.Join(ledger, "snapshots", hash)
		if err := anchor.WriteTree(dir, files); err != nil {
			t.Fatal(err)
		}
		tt.tamper(dir)
		got, err := Snapshot(ledger, hash)
		switch {
		case tt.want == "" && (err != nil || anchor.HashOf(got) != hash):
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
	if _, err := Snapshot(t.TempDir(), "../../etc"); err == nil || !strings.Contains(err.Error(), "malformed") {
		t.Errorf("a malformed hash: %v", err)
	}
}

func TestLedgerSetting(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("ANCHOR_HOME", "")
	t.Setenv("RATCHET_LEDGER", "")
	config := filepath.Join(home, ".config", "ratchet", "config")
	os.MkdirAll(filepath.Dir(config), 0o755)
	tests := []struct {
		name, flag, anchorHome, env, config string
		want, from, err                     string
	}{
		{name: "nothing", want: "", from: ""},
		{name: "config", config: "# mine\nledger = ~/evolve/.anchor  # the one I evolve\n", want: home + "/evolve/.anchor", from: config},
		{name: "config quoted", config: `ledger = "/srv/ledger"` + "\n", want: "/srv/ledger", from: config},
		{name: "env beats config", env: "/e", config: "ledger = /c\n", want: "/e", from: "RATCHET_LEDGER"},
		{name: "ANCHOR_HOME beats env", anchorHome: "/a", env: "/e", want: "/a", from: "ANCHOR_HOME"},
		{name: "flag beats all", flag: "/f", anchorHome: "/a", env: "/e", config: "ledger = /c\n", want: "/f", from: "--ledger"},
		{name: "unknown key", config: "harness = /x\n", err: `line 1: unknown setting "harness"`},
		{name: "not key value", config: "\n/srv/ledger\n", err: "line 2: \"/srv/ledger\" is not key = value"},
		{name: "empty value", config: "ledger =\n", err: "ledger has no path"},
	}
	for _, tt := range tests {
		t.Setenv("ANCHOR_HOME", tt.anchorHome)
		t.Setenv("RATCHET_LEDGER", tt.env)
		os.Remove(config)
		if tt.config != "" {
			os.WriteFile(config, []byte(tt.config), 0o644)
		}
		got, from, err := Ledger(tt.flag)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
		case tt.err == "" && (err != nil || got != tt.want || from != tt.from):
			t.Errorf("%s: Ledger = %q from %q (%v), want %q from %q", tt.name, got, from, err, tt.want, tt.from)
		}
	}
	// A path to ledger.db names its folder.
	ledger := filepath.Join(home, "l")
	os.MkdirAll(ledger, 0o755)
	os.WriteFile(filepath.Join(ledger, "ledger.db"), nil, 0o644)
	if got, _, _ := Ledger(filepath.Join(ledger, "ledger.db")); got != ledger {
		t.Errorf("Ledger(ledger.db) = %q, want %q", got, ledger)
	}
}

func TestLocateOrderAndErrors(t *testing.T) {
	h, err := Locate(repoHarness(), "/no/such/ledger")
	if err != nil || h.Kind != Folder || !strings.HasPrefix(h.String(), "folder /") {
		t.Errorf("a folder wins over a ledger: %v %v", h, err)
	}
	if _, err := Locate("", "/no/such/ledger"); err == nil || !strings.Contains(err.Error(), "no ledger at /no/such/ledger") {
		t.Errorf("a named ledger that is missing: %v", err)
	}
	if _, err := Locate(t.TempDir(), ""); err == nil || !strings.Contains(err.Error(), "no manifest.toml") {
		t.Errorf("a folder that is no harness: %v", err)
	}
	if h, err := Locate("", ""); err != nil || h.Kind != Baseline {
		t.Errorf("nothing named: %v %v", h, err)
	}
}

func TestBuildIsCachedByHash(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("compiles the harness")
	}
	b, err := BuiltIn()
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	bin, err := b.Build(home, false)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(bin) != b.Hash {
		t.Errorf("binary %s is not named by the hash %s", bin, b.Hash)
	}
	st, _ := os.Stat(bin)
	again, err := b.Build(home, false)
	st2, _ := os.Stat(again)
	if err != nil || again != bin || !st.ModTime().Equal(st2.ModTime()) {
		t.Errorf("the second build was not served from the cache: %v", err)
	}
	bad := &Harness{Kind: Folder, Path: "/x", Hash: strings.Repeat("0", 64), Files: map[string][]byte{"go.mod": []byte("module h\n"), "main.go": []byte("package main\nfunc main() { nope }\n")}}
	if _, err := bad.Build(home, false); err == nil || !strings.Contains(err.Error(), "build the harness folder /x") {
		t.Errorf("a harness that does not compile: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(home, "builds")); len(entries) != 2 {
		t.Errorf("builds/ holds %d entries, want only the one binary and its digest", len(entries))
	}
	// A cached build changed after it was built is not run: it is built again.
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho replaced\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	rebuilt, err := b.Build(home, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(rebuilt); strings.Contains(string(got), "echo replaced") {
		t.Errorf("a cached build changed after it was built was used as it is")
	}
	// A build with no digest beside it (a folder someone else filled) is built again.
	os.Remove(bin + digestSuffix)
	os.WriteFile(bin, []byte("#!/bin/sh\necho planted\n"), 0o755)
	if _, err := b.Build(home, false); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(bin); strings.Contains(string(got), "echo planted") {
		t.Errorf("a cached build without its digest was used as it is")
	}
}

func TestBuildWithoutGo(t *testing.T) {
	b, err := BuiltIn()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := b.Build(t.TempDir(), false); err == nil || !strings.Contains(err.Error(), "no go command on PATH") {
		t.Errorf("a build without Go: %v", err)
	}
}

// BenchmarkLocateHead is what every request pays before it runs: read the
// ledger, read the head snapshot and check its hash.
func BenchmarkLocateHead(b *testing.B) {
	base, err := BuiltIn()
	if err != nil {
		b.Fatal(err)
	}
	ledger := makeLedger(b, 0, base.Files)
	for b.Loop() {
		if _, err := Locate("", ledger); err != nil {
			b.Fatal(err)
		}
	}
}

// makeLedger writes a ledger with the anchor's generations and head tables:
// one generation per tree (nil: refused before a snapshot was made), each
// stored as a snapshot, and head at generation head.
func makeLedger(tb testing.TB, head int, trees ...map[string][]byte) string {
	tb.Helper()
	ledger := tb.TempDir()
	db, err := sql.Open("sqlite", filepath.Join(ledger, "ledger.db"))
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	_, err = db.Exec(`CREATE TABLE generations(gen INTEGER PRIMARY KEY, harness_hash TEXT, decision TEXT);
		CREATE TABLE head(id INTEGER PRIMARY KEY, gen INTEGER); INSERT INTO head VALUES(1, ?)`, head)
	for gen, files := range trees {
		hash, decision := "", "refused"
		if files != nil {
			hash, decision = anchor.HashOf(files), "accept"
			err = errors.Join(err, anchor.WriteTree(filepath.Join(ledger, "snapshots", hash), files))
		}
		_, ierr := db.Exec(`INSERT INTO generations VALUES(?, NULLIF(?, ''), ?)`, gen, hash, decision)
		err = errors.Join(err, ierr)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return ledger
}

func TestExport(t *testing.T) {
	g0 := map[string][]byte{"manifest.toml": []byte("editable = []\n"), "main.go": []byte("package main\n\nfunc main() {}\n"), "tools/t.go": []byte("package tools\n")}
	g2 := map[string][]byte{"manifest.toml": []byte("editable = []\n"), "main.go": []byte("package main\n\nfunc main() { println() }\n"), "tools/t.go": []byte("package tools\n")}
	ledger := makeLedger(t, 2, g0, nil, g2)
	emptyDir := filepath.Join(t.TempDir(), "out")
	os.Mkdir(emptyDir, 0o755)
	full := t.TempDir()
	os.WriteFile(filepath.Join(full, "keep.txt"), []byte("mine"), 0o644)
	tests := []struct {
		name string
		gen  int
		dir  string
		want map[string][]byte
		err  string
	}{
		{"a generation", 0, filepath.Join(t.TempDir(), "g0"), g0, ""},
		{"the head", -1, filepath.Join(t.TempDir(), "head"), g2, ""},
		{"into an empty folder", 2, emptyDir, g2, ""},
		{"into a folder with files", 2, full, nil, "is not empty"},
		{"refused before a snapshot", 1, filepath.Join(t.TempDir(), "g1"), nil, "generation 1 was refused before a snapshot was made"},
		{"no such generation", 7, filepath.Join(t.TempDir(), "g7"), nil, "has no generation 7"},
	}
	for _, tt := range tests {
		hash, err := Export(ledger, tt.gen, tt.dir)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		got, rerr := anchor.ReadTree(tt.dir, true)
		if err != nil || rerr != nil || hash != anchor.HashOf(tt.want) || anchor.HashOf(got) != hash {
			t.Errorf("%s: Export = %s, %v; the folder hashes to %s (%v), want %s", tt.name, hash, err, anchor.HashOf(got), rerr, anchor.HashOf(tt.want))
		}
	}
	if b, _ := os.ReadFile(filepath.Join(full, "keep.txt")); string(b) != "mine" {
		t.Error("an export into a non-empty folder touched it")
	}
	if entries, _ := os.ReadDir(filepath.Dir(emptyDir)); len(entries) != 1 {
		t.Errorf("the export left %d entries beside %s, want only the folder", len(entries), emptyDir)
	}
}

// BenchmarkBuiltIn is the cost of unpacking the embedded baseline.
func BenchmarkBuiltIn(b *testing.B) {
	for b.Loop() {
		if _, err := BuiltIn(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCachedBuild is what a request pays to reuse a cached build: hash
// the binary and compare it with the digest recorded when it was built.
func BenchmarkCachedBuild(b *testing.B) {
	h, err := BuiltIn()
	if err != nil {
		b.Fatal(err)
	}
	home := b.TempDir()
	bin, err := h.Build(home, false)
	if err != nil {
		b.Fatal(err)
	}
	if st, err := os.Stat(bin); err == nil {
		b.ReportMetric(float64(st.Size())/1e6, "MB")
	}
	for b.Loop() {
		if _, err := h.Build(home, false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFirstBuild is what the first request on a new hash pays to
// compile the baseline: as the user (warm Go build cache), or in the
// anchor's sandbox over a private layer of the warm sandbox cache, which
// keeps nothing of the harness's own packages between builds.
func BenchmarkFirstBuild(b *testing.B) {
	h, err := BuiltIn()
	if err != nil {
		b.Fatal(err)
	}
	for _, where := range []struct {
		name    string
		sandbox bool
	}{{"host", false}, {"sandboxed", true}} {
		b.Run(where.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := h.Build(b.TempDir(), where.sandbox); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A harness is source a model wrote, and the doors build whatever folder
// they are pointed at. A go.mod may replace a module with any folder, so a
// harness built on the host compiles host files it names into itself (here
// a module planted in the host's temporary folder, standing for a user's
// private code). Built in the sandbox, the folder is not there, and the
// host's build of the same hash is not reused.
func TestBuildSeesNoHostFolder(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("compiles in the sandbox")
	}
	host := t.TempDir()
	files := map[string]string{
		"go.mod":    "module hostsecret\n\ngo 1.22\n",
		"secret.go": "package hostsecret\n\nconst Word = \"host-only-word\"\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(host, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src := map[string][]byte{
		"go.mod":  []byte("module h\n\ngo 1.22\n\nrequire hostsecret v0.0.0\n\nreplace hostsecret => " + host + "\n"),
		"main.go": []byte("package main\n\nimport (\n\t\"fmt\"\n\n\t\"hostsecret\"\n)\n\nfunc main() { fmt.Println(hostsecret.Word) }\n"),
	}
	h := &Harness{Kind: Folder, Path: "/x", Hash: anchor.HashOf(src), Files: src}
	home := t.TempDir()
	if _, err := h.Build(home, false); err != nil { // as the user, who runs it as themselves
		t.Fatalf("the same harness built as the user: %v", err)
	}
	bin, err := h.Build(home, true)
	if err == nil {
		out, _ := exec.Command(bin).Output()
		t.Fatalf("a harness compiled a host folder into itself (it prints %q)", out)
	}
	t.Logf("%v", err)
	if !strings.Contains(err.Error(), host) || strings.Count(err.Error(), "\n") > 20 {
		t.Errorf("the build error does not name the missing folder: %v", err)
	}
}
