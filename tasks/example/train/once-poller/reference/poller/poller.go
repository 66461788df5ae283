// Package poller runs a background feed poller.
package poller

import "sync"

// Poller is a feed poller that runs until it is stopped.
type Poller struct {
	done chan struct{}
	once sync.Once
}

// New returns a running Poller.
func New() *Poller { return &Poller{done: make(chan struct{})} }

// Done is closed when the feed poller has been stopped.
func (w *Poller) Done() <-chan struct{} { return w.done }

// Stop stops the feed poller. It is safe to call Stop more than once, also
// from several goroutines at the same time.
func (w *Poller) Stop() {
	w.once.Do(func() { close(w.done) })
}
