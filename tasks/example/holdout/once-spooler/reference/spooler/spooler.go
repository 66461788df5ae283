// Package spooler runs a background print spooler.
package spooler

import "sync"

// Spooler is a print spooler that runs until it is stopped.
type Spooler struct {
	done chan struct{}
	once sync.Once
}

// New returns a running Spooler.
func New() *Spooler { return &Spooler{done: make(chan struct{})} }

// Done is closed when the print spooler has been stopped.
func (w *Spooler) Done() <-chan struct{} { return w.done }

// Stop stops the print spooler. It is safe to call Stop more than once, also
// from several goroutines at the same time.
func (w *Spooler) Stop() {
	w.once.Do(func() { close(w.done) })
}
