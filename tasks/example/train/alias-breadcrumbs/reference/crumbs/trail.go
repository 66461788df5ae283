// Package crumbs builds breadcrumb trails step by step.
package crumbs

// Trail is a breadcrumb trail: page titles in order.
type Trail []string

// Push returns a new Trail: p followed by s. p is not changed, and the
// result shares nothing with p, so p can be extended again in another way.
func (p Trail) Push(s string) Trail {
	out := make(Trail, len(p), len(p)+1)
	copy(out, p)
	return append(out, s)
}
