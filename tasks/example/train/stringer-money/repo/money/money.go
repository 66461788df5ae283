// Package money formats amounts of money.
package money

import "fmt"

// Money is an amount in cents of a currency.
type Money struct {
	Cents    int64
	Currency string
}

// String formats x like "19.99 EUR".
func (x *Money) String() string {
	return fmt.Sprintf("%d.%02d %s", x.Cents/100, x.Cents%100, x.Currency)
}

// Entry returns a line of the ledger: label, a colon, a space and the
// amount, like "coffee: 19.99 EUR".
func Entry(label string, x Money) string {
	return fmt.Sprintf("%s: %v", label, x)
}
