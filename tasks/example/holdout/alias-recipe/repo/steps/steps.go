// Package steps builds recipe step lists step by step.
package steps

// Steps is a recipe: steps in order.
type Steps []string

// And returns a new Steps: p followed by s. p is not changed, and the
// result shares nothing with p, so p can be extended again in another way.
func (p Steps) And(s string) Steps {
	return append(p, s)
}
