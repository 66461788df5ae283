// Package recorder runs a background screen recorder.
package recorder

// Recorder is a screen recorder that runs until it is stopped.
type Recorder struct {
	done chan struct{}
}

// New returns a running Recorder.
func New() *Recorder { return &Recorder{done: make(chan struct{})} }

// Done is closed when the screen recorder has been stopped.
func (w *Recorder) Done() <-chan struct{} { return w.done }

// Stop stops the screen recorder. It is safe to call Stop more than once, also
// from several goroutines at the same time.
func (w *Recorder) Stop() {
	close(w.done)
}
