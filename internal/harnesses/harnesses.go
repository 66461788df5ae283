// Package harnesses finds the harness the front doors run, checks it and
// builds it. In order: the folder the user names (--harness); else the head
// snapshot of the ledger the user names (see Ledger), verified against the
// hash the ledger records; else the hand-written baseline embedded in the
// ratchet binary. Builds are cached by hash in the ratchet home. The ledger
// is only read, never written: the anchor owns it.
//
// It imports the anchor (for its tree reader, hash and sandbox) and ledgerdb.
package harnesses

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"ratchet/anchor"
)

//go:generate go run gen_baseline.go

// baselineTar is harness/ as it is in the repository, archived by
// gen_baseline.go (the harness is its own module, so go:embed cannot reach it).
//
//go:embed baseline.tar
var baselineTar []byte

// Kind says where a harness came from.
type Kind string

// The three places a harness comes from, in the order Locate tries them.
const (
	Folder   Kind = "folder"   // a folder the user named
	Head     Kind = "head"     // the head snapshot of a ledger
	Baseline Kind = "baseline" // the hand-written harness built into ratchet
)

// Harness is a located and verified harness: its files and their origin.
type Harness struct {
	Kind  Kind
	Path  string // the folder (Folder) or the ledger's anchor home (Head), absolute
	Gen   int    // the head generation (Head)
	Hash  string // anchor.HashOf(Files)
	Files map[string][]byte
}

// String says which harness this is, as request records and summaries show
// it: "head of /home/me/evolve/.anchor (gen 7, 3f2a9c1d0b7e…)".
func (h *Harness) String() string {
	switch h.Kind {
	case Folder:
		return fmt.Sprintf("folder %s (%s…)", h.Path, short(h.Hash))
	case Head:
		return fmt.Sprintf("head of %s (gen %d, %s…)", h.Path, h.Gen, short(h.Hash))
	}
	return fmt.Sprintf("built-in baseline (%s…)", short(h.Hash))
}

func short(hash string) string { return hash[:min(12, len(hash))] }

// Locate returns the harness the doors run: the folder when one is named,
// else the head of the ledger (an anchor home) when one is named, else the
// built-in baseline. A head snapshot that no longer matches its hash is an
// error saying so; Locate never falls back past a harness the user named.
func Locate(folder, ledger string) (*Harness, error) {
	switch {
	case folder != "":
		return FromFolder(folder)
	case ledger != "":
		return HeadOf(ledger)
	}
	return BuiltIn()
}

// FromFolder reads a harness folder as the anchor would snapshot it.
func FromFolder(dir string) (*Harness, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	files, err := anchor.ReadTree(abs, true)
	if err == nil && files["manifest.toml"] == nil {
		err = errors.New("it has no manifest.toml")
	}
	if err != nil {
		return nil, fmt.Errorf("the harness folder %s cannot be used (%v); point --harness at a harness folder, or drop it to use the ledger's head or the built-in baseline", abs, err)
	}
	return &Harness{Kind: Folder, Path: abs, Hash: anchor.HashOf(files), Files: files}, nil
}

// BuiltIn returns the hand-written baseline embedded in the binary.
func BuiltIn() (*Harness, error) {
	files := map[string][]byte{}
	tr := tar.NewReader(bytes.NewReader(baselineTar))
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read the built-in baseline: %w; rebuild ratchet", err)
		}
		if hdr.Typeflag != tar.TypeReg || !filepath.IsLocal(hdr.Name) {
			return nil, fmt.Errorf("read the built-in baseline: unexpected entry %q; run go generate ./internal/harnesses", hdr.Name)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("read the built-in baseline: %w; rebuild ratchet", err)
		}
		files[hdr.Name] = b
	}
	if files["manifest.toml"] == nil {
		return nil, errors.New("the built-in baseline has no manifest.toml; run go generate ./internal/harnesses and rebuild ratchet")
	}
	return &Harness{Kind: Baseline, Hash: anchor.HashOf(files), Files: files}, nil
}

// Build compiles the harness into home/builds/<hash> (builds/sandboxed/<hash>
// with sandbox), once per hash, and returns the binary's path. It compiles a
// private copy of the verified files, so nothing can change them between the
// check and the build. With sandbox, for a door that runs the agent under
// bubblewrap, the build runs in the anchor's sandbox as the anchor's own
// builds do: offline, no host folder in sight but the toolchain, memory,
// processes and time capped. A harness is source a model wrote, and a go.mod
// pointing at host folders, or a compiler fed a bomb, must not reach or take
// the host there. Without, it builds as the user, who then runs it as
// themselves anyway.
func (h *Harness) Build(home string, sandbox bool) (string, error) {
	builds, err := filepath.Abs(filepath.Join(home, "builds"))
	if err != nil {
		return "", err
	}
	if sandbox { // never a build made on the host: it may hold what it saw there
		builds = filepath.Join(builds, "sandboxed")
	}
	bin := filepath.Join(builds, h.Hash)
	if cached(bin) {
		return bin, nil
	}
	if _, err := exec.LookPath("go"); err != nil {
		return "", errors.New("the harness is built from source on first use, and there is no go command on PATH: install Go (go.dev/dl) or add it to PATH")
	}
	if err := os.MkdirAll(builds, 0o755); err != nil {
		return "", fmt.Errorf("create %s: %w; set RATCHET_HOME to a writable folder", builds, err)
	}
	work, err := os.MkdirTemp(builds, "src-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	if err := anchor.WriteTree(filepath.Join(work, "src"), h.Files); err != nil {
		return "", fmt.Errorf("write the harness source to %s: %w", work, err)
	}
	compile := compileHere
	if sandbox {
		compile = compileInBox
	}
	if err := compile(work); err != nil {
		return "", fmt.Errorf("build the harness %s: %w", h, err)
	}
	tmp := bin + ".tmp-" + rand.Text()
	err = os.Rename(filepath.Join(work, "harness"), tmp)
	sum := ""
	if err == nil {
		sum, err = digest(tmp)
	}
	if err == nil {
		err = writeFile(bin+digestSuffix, []byte(sum+"\n"))
	}
	if err == nil {
		err = os.Rename(tmp, bin)
	}
	if err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("save the harness build in %s: %w; set RATCHET_HOME to a writable folder", builds, err)
	}
	return bin, nil
}

// compileHere builds work/src into work/harness as the user, offline.
func compileHere(work string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(work, "harness"), ".")
	cmd.Dir = filepath.Join(work, "src")
	cmd.Env = append(buildEnv(), "CGO_ENABLED=0", "GOPROXY=off", "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%v: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// compileInBox builds work/src into work/harness in the anchor's sandbox,
// over a private layer of its warm build cache.
func compileInBox(work string) error {
	cache, err := anchor.WarmCache()
	if err != nil {
		return err
	}
	box := anchor.Box{Work: work, Cache: cache, Dir: "/work/src", Timeout: buildTimeout,
		Args: []string{"go", "build", "-o", "/work/harness", "."}}
	code, out, timedOut, err := box.Run(context.Background())
	switch {
	case err != nil:
		return err
	case timedOut:
		return fmt.Errorf("the compiler ran out of time (%s)", buildTimeout)
	case code != 0:
		return fmt.Errorf("exit status %d: %s", code, strings.TrimSpace(string(out[max(0, len(out)-2000):])))
	}
	return nil
}

// buildTimeout is the wall clock for one sandboxed build, as the anchor's.
const buildTimeout = 5 * time.Minute

// digestSuffix names the file beside each cached build that holds the
// sha256 of the binary as it was built.
const digestSuffix = ".sha256"

// cached reports whether bin is a regular file whose sha256 is the one
// recorded beside it when it was built. A build that is missing, has no
// recorded digest, or was changed since is not used: it is built again.
func cached(bin string) bool {
	st, err := os.Lstat(bin)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	want, err := os.ReadFile(bin + digestSuffix)
	if err != nil {
		return false
	}
	got, err := digest(bin)
	return err == nil && got == strings.TrimSpace(string(want))
}

// digest is the hex sha256 of the file at path.
func digest(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// writeFile replaces path with b through a temporary file and a rename, so a
// reader sees the old content or the new, never part of it.
func writeFile(path string, b []byte) error {
	tmp := path + ".tmp-" + rand.Text()
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// buildEnv is the part of the environment go build needs, and nothing else:
// no credential of the user's reaches the compiler.
func buildEnv() []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "XDG_CACHE_HOME", "GOCACHE", "GOPATH", "GOROOT", "GOMODCACHE"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}
