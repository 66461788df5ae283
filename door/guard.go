package door

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The kinds of refused request. Ask's errors wrap one of them, so a front
// door maps an error onto its answer with errors.Is, never by its text.
var (
	ErrInvalid   = errors.New("door: invalid request")                 // 400: empty request, unknown project or session
	ErrTooLarge  = errors.New("door: request too large")               // 413
	ErrForbidden = errors.New("door: project outside the roots")       // 403
	ErrNoModel   = errors.New("door: no model configured")             // 503
	ErrCommand   = errors.New("door: commands come from the operator") // 400: a request that names a command
)

// RequestError is a refused request: a message for the person, and the kind
// (one of the Err variables) for the door.
type RequestError struct {
	Kind error
	Msg  string
}

func (e *RequestError) Error() string { return e.Msg }

// Unwrap returns the kind, so that errors.Is(err, ErrForbidden) works.
func (e *RequestError) Unwrap() error { return e.Kind }

func refuse(kind error, format string, args ...any) error {
	return &RequestError{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// resolveRoots makes the operator's roots absolute with every link
// resolved, so that a project is compared with what it really is.
func resolveRoots(roots []string) ([]string, error) {
	var out []string
	for _, r := range roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, fmt.Errorf("project root %q: %v", r, err)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, fmt.Errorf("project root %q is not a folder; name folders that exist with --project or --root", r)
		}
		if st, err := os.Stat(real); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("project root %q is not a folder; name folders that exist with --project or --root", r)
		}
		out = append(out, real)
	}
	return out, nil
}

// within reports whether path is root or lies under it (both absolute and
// clean). filepath.IsLocal(".") is true, so root itself is within.
func within(path, root string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && filepath.IsLocal(rel)
}

// project resolves the project a request names and checks it against the
// roots (when the door has any). It returns the project's real path: what
// runs afterwards uses that, never the name the request gave. A path outside
// the roots is refused whether or not it exists, so a request cannot probe
// the host's folders.
func (d *Door) project(name string) (string, error) {
	unknown := refuse(ErrInvalid, "unknown project %q: give the path of a folder that exists", name)
	outside := refuse(ErrForbidden, "project %q is outside the folders this door may work on (%s); the operator names them with --project or --root",
		name, strings.Join(d.cfg.Roots, ", "))
	abs, err := filepath.Abs(name)
	switch {
	case name == "":
		return "", refuse(ErrInvalid, "no project: name the folder the agent should work on")
	case err != nil:
		return "", unknown
	case !d.allowed(abs):
		return "", outside
	}
	real, err := filepath.EvalSymlinks(abs)
	switch {
	case err != nil:
		return "", unknown
	case !d.allowed(real):
		return "", outside
	}
	if st, err := os.Stat(real); err != nil || !st.IsDir() {
		return "", unknown
	}
	if d.owned(real) {
		return "", refuse(ErrForbidden, "project %q is, holds or lies in the door's own folders (RATCHET_HOME, the ledger, the harness): name a project of yours", name)
	}
	return real, nil
}

// Admits reports whether the door may work on project: a folder inside its
// roots, and none of its own (see project).
func (d *Door) Admits(project string) bool {
	_, err := d.project(project)
	return err == nil
}

// owned reports whether path (real) is, holds or lies in one of the door's
// own folders: write-back there would replace the harness builds every later
// request runs, the request records or a ledger.
func (d *Door) owned(path string) bool {
	for _, o := range d.own {
		if overlaps(path, o) {
			return true
		}
	}
	return false
}

func (d *Door) allowed(path string) bool {
	if d.cfg.Roots == nil {
		return true // ratchet run: the operator names the project on the command line
	}
	for _, root := range d.cfg.Roots {
		if within(path, root) {
			return true
		}
	}
	return false
}

// credentialWords mark an environment variable as a credential: API keys,
// tokens, secrets, passwords, and the agent sockets that unlock them.
var credentialWords = []string{"KEY", "TOKEN", "SECRET", "PASSW", "CREDENTIAL", "AUTH", "COOKIE"}

// HostEnv is env without credentials: every variable whose name contains
// one of credentialWords (MODEL_API_KEY, OPENAI_API_KEY, GITHUB_TOKEN,
// AWS_SECRET_ACCESS_KEY, SSH_AUTH_SOCK, RATCHET_TOKEN ...) and every variable
// whose value is one of secrets. Commands the doors run on the host get it.
func HostEnv(env []string, secrets ...string) []string {
	var out []string
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		drop := false
		for _, w := range credentialWords {
			drop = drop || strings.Contains(strings.ToUpper(k), w)
		}
		for _, s := range secrets {
			drop = drop || s != "" && strings.Contains(v, s)
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}
