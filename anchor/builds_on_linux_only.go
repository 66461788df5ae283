//go:build !linux

package anchor

// The anchor's sandbox is bubblewrap in Linux namespaces with cgroup limits,
// so Ratchet builds on Linux only; elsewhere the build stops here, by name.
var _ = Ratchet_builds_on_Linux_only_bubblewrap_cgroups_and_mount_namespaces
