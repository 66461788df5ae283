// Package survey checks survey answers before they are stored.
package survey

// Answer is a survey answer as submitted.
type Answer struct {
	Question string
	Score    int
}

// Validate returns a *FieldError for the first invalid field, or nil
// when x is valid.
func Validate(x Answer) error {
	var bad *FieldError
	switch {
	case x.Question == "":
		bad = &FieldError{"question", "missing"}
	case x.Score < 1 || x.Score > 5:
		bad = &FieldError{"score", "not between 1 and 5"}
	}
	if bad == nil {
		return nil
	}
	return bad
}
