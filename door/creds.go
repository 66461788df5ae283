package door

import (
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// credentialsFD names the descriptor HideCredentials hands the credentials
// over in, across its re-exec.
const credentialsFD = "RATCHET_CREDENTIALS_FD"

// HideCredentials keeps the credentials (the variables HostEnv drops by
// name: MODEL_API_KEY, GITHUB_TOKEN ...) out of this process's
// /proc/PID/environ, which the host commands the doors start (the project's
// tests, anything the agent wrote) could read from their parent. It re-execs
// the program once, in place (same process ID), with the credentials
// removed from its environment and handed over through a pipe; the new image
// puts them back into os.Environ, which is all the program uses. A command
// calls it first thing in main. On any failure it leaves things as they are.
//
// The credentials still live in the process's memory: /proc/PID/mem is
// guarded by ptrace's rules (Yama's ptrace_scope 1 keeps a child from
// reading its parent), which --sandbox does not depend on.
func HideCredentials() {
	if v, ok := os.LookupEnv(credentialsFD); ok {
		os.Unsetenv(credentialsFD)
		restoreCredentials(v)
		return
	}
	var keep, secret []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if len(HostEnv([]string{kv})) == 0 && !strings.ContainsRune(kv, 0) {
			secret = append(secret, kv)
		} else if k != credentialsFD {
			keep = append(keep, kv)
		}
	}
	data := strings.Join(secret, "\x00")
	if len(secret) == 0 || len(data) > 32<<10 { // the pipe must hold it all before the exec
		return
	}
	r, w, err := os.Pipe()
	if err != nil {
		return
	}
	fd := int(r.Fd())
	_, werr := io.WriteString(w, data)
	w.Close()
	if _, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETFD, 0); werr != nil || errno != 0 {
		r.Close()
		return
	}
	syscall.Exec("/proc/self/exe", os.Args, append(keep, credentialsFD+"="+strconv.Itoa(fd)))
	r.Close() // the exec failed: carry on with the credentials where they were
}

// restoreCredentials reads the credentials HideCredentials handed over in
// descriptor fd (a pipe) into the environment.
func restoreCredentials(fd string) {
	n, err := strconv.Atoi(fd)
	if err != nil || n < 3 {
		return
	}
	f := os.NewFile(uintptr(n), "credentials")
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		return
	}
	b, _ := io.ReadAll(io.LimitReader(f, 64<<10))
	for kv := range strings.SplitSeq(string(b), "\x00") {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			os.Setenv(k, v)
		}
	}
}
