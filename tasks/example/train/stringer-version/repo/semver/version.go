// Package semver formats package versions.
package semver

import "fmt"

// Version is a semantic version.
type Version struct {
	Major, Minor, Patch int
}

// String formats x like "v1.4.2".
func (x *Version) String() string {
	return fmt.Sprintf("v%d.%d.%d", x.Major, x.Minor, x.Patch)
}

// Row returns a line of the package index: label, a colon, a space and the
// version, like "latest: v1.4.2".
func Row(label string, x Version) string {
	return fmt.Sprintf("%s: %v", label, x)
}
