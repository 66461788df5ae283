package mine

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// git runs git in repo and returns its standard output. A failure's error
// is git's first line of complaint.
func git(ctx context.Context, repo string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", repo}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		first, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return nil, fmt.Errorf("git %s: %s", args[0], strings.TrimPrefix(first, "fatal: "))
	}
	return out, nil
}

// openRepo checks that dir is a whole git repository: not a plain folder,
// not a shallow clone (its history would end early and its oldest commit
// look like a root).
func openRepo(ctx context.Context, dir string) error {
	if _, err := git(ctx, dir, "rev-parse", "--git-dir"); err != nil {
		return fmt.Errorf("%s is not a git repository: give the folder of a clone (git clone URL)", dir)
	}
	out, err := git(ctx, dir, "rev-parse", "--is-shallow-repository")
	if err != nil {
		return err
	}
	if strings.TrimSpace(string(out)) == "true" {
		return fmt.Errorf("%s is a shallow clone: its history is cut short; run git -C %s fetch --unshallow first", dir, dir)
	}
	return nil
}

// commit is one commit of the first-parent chain.
type commit struct {
	hash, parent string // parent is "" for a root commit
	message      string
	when         time.Time // the committer's date
}

// firstParents lists the first-parent chain that ends at rev, oldest
// first, with each commit's first parent and message.
func firstParents(ctx context.Context, repo, rev string) ([]commit, error) {
	out, err := git(ctx, repo, "log", "--first-parent", "--reverse", "-z", "--format=%H %ct %P%n%B", rev, "--")
	if err != nil {
		return nil, fmt.Errorf("read the history of %s at %s: %w", repo, rev, err)
	}
	var cs []commit
	for rec := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		head, msg, _ := strings.Cut(rec, "\n")
		f := strings.Fields(head)
		if len(f) < 2 {
			continue
		}
		c := commit{hash: f[0], message: msg}
		if unix, err := strconv.ParseInt(f[1], 10, 64); err == nil {
			c.when = time.Unix(unix, 0)
		}
		if len(f) > 2 {
			c.parent = f[2]
		}
		cs = append(cs, c)
	}
	if len(cs) == 0 {
		return nil, fmt.Errorf("%s has no commits at %s", repo, rev)
	}
	return cs, nil
}

// change is one file a commit changed, with the lines added and removed.
type change struct {
	path    string
	deleted bool
	lines   int
}

// changes lists what to changed from from, renames as a deletion and an
// addition.
func changes(ctx context.Context, repo, from, to string) ([]change, error) {
	status, err := git(ctx, repo, "diff", "--no-ext-diff", "--no-textconv", "--no-renames", "--name-status", "-z", from, to, "--")
	if err != nil {
		return nil, err
	}
	numstat, err := git(ctx, repo, "diff", "--no-ext-diff", "--no-textconv", "--no-renames", "--numstat", "-z", from, to, "--")
	if err != nil {
		return nil, err
	}
	lines := map[string]int{}
	for rec := range strings.SplitSeq(string(numstat), "\x00") {
		f := strings.SplitN(rec, "\t", 3)
		if len(f) == 3 {
			a, _ := strconv.Atoi(f[0]) // "-" for a binary file: 0
			d, _ := strconv.Atoi(f[1])
			lines[f[2]] = a + d
		}
	}
	var cs []change
	fields := strings.Split(strings.TrimSuffix(string(status), "\x00"), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		cs = append(cs, change{path: fields[i+1], deleted: fields[i] == "D", lines: lines[fields[i+1]]})
	}
	return cs, nil
}

// treeAt reads the files of rev's tree (regular files only: links and
// submodules are left out) as git stores them: ls-tree lists the blobs and
// cat-file --batch prints their bytes. Neither runs a filter driver or an
// external diff that the repository's .gitattributes and .git/config name,
// as git archive (smudge filters) would, so mining a repository handed over
// as a folder never runs its commands on the host.
func treeAt(ctx context.Context, repo, rev string) (map[string][]byte, error) {
	list, err := git(ctx, repo, "ls-tree", "-r", "-z", "--full-tree", rev)
	if err != nil {
		return nil, err
	}
	var paths []string
	var batch strings.Builder
	for rec := range strings.SplitSeq(strings.TrimSuffix(string(list), "\x00"), "\x00") {
		meta, path, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" || (f[0] != "100644" && f[0] != "100755") {
			continue // a link (120000), a submodule (a commit) or nothing
		}
		paths = append(paths, path)
		batch.WriteString(f[2] + "\n")
	}
	cmd := exec.CommandContext(ctx, "git", "-C", repo, "cat-file", "--batch")
	cmd.Stdin = strings.NewReader(batch.String())
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("read the tree of %s: git cat-file: %v", rev, err)
	}
	files := map[string][]byte{}
	r := bufio.NewReader(bytes.NewReader(out))
	for _, path := range paths {
		head, err := r.ReadString('\n')
		f := strings.Fields(head)
		if err != nil || len(f) != 3 || f[1] != "blob" {
			return nil, fmt.Errorf("read the tree of %s: git cat-file said %q for %s", rev, strings.TrimSpace(head), path)
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("read the tree of %s: a size %q", rev, f[2])
		}
		b := make([]byte, size+1) // the blob and its newline
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, fmt.Errorf("read the tree of %s: %w", rev, err)
		}
		files[path] = b[:size]
	}
	return files, nil
}
