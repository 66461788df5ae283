package main

import (
	"flag"
	"net"
	"os"
	"path/filepath"
	"strconv"

	"ratchet/door"
)

// requestFlags are the operator's settings of every request a door runs:
// the test command and the token budget. A request never brings its own.
func requestFlags(fs *flag.FlagSet) func(*door.Config) {
	test := fs.String("test", "", "the test command (default: detected per project: go test, pytest, cargo test, Maven, Gradle, npm test, make test, CMake)")
	budget := fs.Int64("budget", door.DefaultBudget, "model tokens one request may spend; the proxy refuses more")
	return func(c *door.Config) {
		c.Test, c.Budget = *test, *budget
	}
}

// roots are the folders a served request's project must lie in.
type roots struct{ projects, dirs []string }

func rootFlags(fs *flag.FlagSet) *roots {
	r := &roots{}
	fs.Func("project", "a project requests may work on (repeatable); the first is the default of a chat request that names none", appendTo(&r.projects))
	fs.Func("root", "requests may work on any project inside this folder (repeatable)", appendTo(&r.dirs))
	return r
}

func (r *roots) check(cmd string) error {
	if len(r.projects)+len(r.dirs) == 0 {
		return usageErr("ratchet %s works only on projects you name: add --project DIR (repeatable) or --root DIR", cmd)
	}
	return nil
}

// orWorkingDir makes the working folder the root when none is named. It
// refuses the filesystem root, the home folder and any folder holding it
// (/home, /Users), where some clients start their servers: a root that wide
// must be named on purpose. Both are compared as the folders they are, with
// every link resolved; without a home folder to compare with it refuses too.
func (r *roots) orWorkingDir(cmd string) error {
	if len(r.projects)+len(r.dirs) > 0 {
		return nil
	}
	wd, err := os.Getwd()
	if err == nil {
		wd, err = filepath.EvalSymlinks(wd)
	}
	home, herr := os.UserHomeDir()
	if herr == nil {
		if real, err := filepath.EvalSymlinks(home); err == nil {
			home = real
		}
	}
	if err != nil || herr != nil || !filepath.IsAbs(home) || wd == "/" || within(home, wd) {
		return usageErr("ratchet %s started in %s: name the projects it may work on with --project DIR (repeatable) or --root DIR", cmd, wd)
	}
	r.dirs = []string{wd}
	return nil
}

// within reports whether path is root or lies under it (both absolute and clean).
func within(path, root string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && filepath.IsLocal(rel)
}

func (r *roots) apply(c *door.Config) { c.Roots = append(append([]string{}, r.projects...), r.dirs...) }

func (r *roots) defaultProject() string {
	if len(r.projects) == 0 {
		return ""
	}
	return r.projects[0]
}

func appendTo(list *[]string) func(string) error {
	return func(v string) error {
		*list = append(*list, v)
		return nil
	}
}

// loopbackOnly refuses a listen address other hosts can reach unless the
// operator said so.
func loopbackOnly(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return usageErr("--addr %q: %v; give HOST:PORT, e.g. 127.0.0.1:8765", addr, err)
	}
	ip := net.ParseIP(host)
	if host == "localhost" || ip != nil && ip.IsLoopback() || allowRemote {
		return nil
	}
	return usageErr("--addr %s is not a loopback address: whoever reaches it can run the agent on this machine; keep 127.0.0.1, or add --allow-remote", addr)
}

// boundHosts are the Host headers that name the bound address itself:
// its IP and port, and localhost on loopback.
func boundHosts(a net.Addr) []string {
	hosts := []string{a.String()}
	if tcp, ok := a.(*net.TCPAddr); ok && tcp.IP.IsLoopback() {
		port := strconv.Itoa(tcp.Port)
		hosts = append(hosts, "localhost:"+port, net.JoinHostPort("127.0.0.1", port), net.JoinHostPort("::1", port))
	}
	return hosts
}
