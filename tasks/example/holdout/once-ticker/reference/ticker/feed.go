// Package ticker runs a background price feed.
package ticker

import "sync"

// Feed is a price feed that runs until it is stopped.
type Feed struct {
	done chan struct{}
	once sync.Once
}

// New returns a running Feed.
func New() *Feed { return &Feed{done: make(chan struct{})} }

// Done is closed when the price feed has been stopped.
func (w *Feed) Done() <-chan struct{} { return w.done }

// Stop stops the price feed. It is safe to call Stop more than once, also
// from several goroutines at the same time.
func (w *Feed) Stop() {
	w.once.Do(func() { close(w.done) })
}
