package gpujob

import (
	"sync"

	"github.com/gpumem/playground/sim/trace"
)

// outbox is a connection's ordered queue of outgoing messages and events,
// filled by any goroutine and drained by the connection's one writer. Adding
// never blocks (a job must not wait for a slow browser while it holds a
// GPU); the job's MaxEvents and MaxOutput limits bound what can pile up.
type outbox struct {
	mu     sync.Mutex
	items  []outItem
	closed bool          // no more items will come: the writer ends when drained
	dead   bool          // the writer has failed: drop everything
	signal chan struct{} // capacity 1: items or closed changed
}

// outItem is a message or an event (events are batched when written).
type outItem struct {
	msg *ServerMessage // nil for an event
	ev  trace.Event
}

func newOutbox() *outbox { return &outbox{signal: make(chan struct{}, 1)} }

func (o *outbox) notify() {
	select {
	case o.signal <- struct{}{}:
	default:
	}
}

// send queues a message.
func (o *outbox) send(m ServerMessage) {
	o.mu.Lock()
	if !o.dead && !o.closed {
		o.items = append(o.items, outItem{msg: &m})
	}
	o.mu.Unlock()
	o.notify()
}

// event queues an event.
func (o *outbox) event(ev trace.Event) {
	o.mu.Lock()
	if !o.dead && !o.closed {
		o.items = append(o.items, outItem{ev: ev})
	}
	o.mu.Unlock()
	o.notify()
}

// take returns the queued items and whether the outbox is closed. spare,
// the slice take returned last time (now written), is reused for the next
// items, so that steady streaming allocates nothing.
func (o *outbox) take(spare []outItem) ([]outItem, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	items := o.items
	clear(spare)
	o.items = spare[:0]
	return items, o.closed
}

// close says nothing more will be sent.
func (o *outbox) close() {
	o.mu.Lock()
	o.closed = true
	o.mu.Unlock()
	o.notify()
}

// kill drops what is queued and everything sent later.
func (o *outbox) kill() {
	o.mu.Lock()
	o.dead = true
	o.items = nil
	o.mu.Unlock()
}
