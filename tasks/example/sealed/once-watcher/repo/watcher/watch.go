// Package watcher runs a background file watcher.
package watcher

// Watcher is a file watcher that runs until it is stopped.
type Watcher struct {
	done chan struct{}
}

// New returns a running Watcher.
func New() *Watcher { return &Watcher{done: make(chan struct{})} }

// Done is closed when the file watcher has been stopped.
func (w *Watcher) Done() <-chan struct{} { return w.done }

// Stop stops the file watcher. It is safe to call Stop more than once, also
// from several goroutines at the same time.
func (w *Watcher) Stop() {
	close(w.done)
}
