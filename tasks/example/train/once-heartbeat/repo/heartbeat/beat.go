// Package heartbeat runs a background heartbeat sender.
package heartbeat

// Beat is a heartbeat sender that runs until it is stopped.
type Beat struct {
	done chan struct{}
}

// New returns a running Beat.
func New() *Beat { return &Beat{done: make(chan struct{})} }

// Done is closed when the heartbeat sender has been stopped.
func (w *Beat) Done() <-chan struct{} { return w.done }

// Stop stops the heartbeat sender. It is safe to call Stop more than once, also
// from several goroutines at the same time.
func (w *Beat) Stop() {
	close(w.done)
}
