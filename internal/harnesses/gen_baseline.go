//go:build ignore

// gen_baseline writes baseline.tar, the hand-written harness embedded in the
// ratchet binary, from ../../harness. The archive is deterministic: sorted
// paths, zero times, fixed modes, no owners (the layout anchor.HashOf hashes).
// Run it with `go generate ./internal/harnesses` after changing harness/.
package main

import (
	"archive/tar"
	"bytes"
	"fmt"
	"maps"
	"os"
	"slices"

	"ratchet/anchor"
)

func main() {
	if err := generate("../../harness", "baseline.tar"); err != nil {
		fmt.Fprintln(os.Stderr, "gen_baseline:", err)
		os.Exit(1)
	}
}

func generate(src, dst string) error {
	files, err := anchor.ReadTree(src, true)
	if err != nil {
		return fmt.Errorf("read %s: %w", src, err)
	}
	if files["manifest.toml"] == nil {
		return fmt.Errorf("%s has no manifest.toml: is it the harness?", src)
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		hdr := &tar.Header{Name: name, Mode: 0o644, Size: int64(len(files[name])), Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := tw.Write(files[name]); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return os.WriteFile(dst, buf.Bytes(), 0o644)
}
