package gpujob

import (
	"sync"
	"unsafe"

	"github.com/gpumem/playground/sim/trace"
)

// outbox is a connection's ordered queue of outgoing messages and events,
// filled by any goroutine and drained by the connection's one writer. Adding
// never blocks (a job must not wait for a slow browser while it holds a
// GPU). Events are bounded in bytes instead: from the event that would take
// the unsent events (queued or being written) past maxQueued, the outbox
// drops events and calls overflow once, which cancels the job; messages
// are always taken.
//
// Two signals wake the writer: signal when anything was added, and ready
// when a frame is due at once (a message, the end of the stream, or a full
// batch of events). Events alone wait up to HandlerOptions.FlushDelay for
// more, so that a fast stream goes out in few large frames.
type outbox struct {
	mu     sync.Mutex
	items  []outItem
	events int           // events among items
	batch  int           // events that make a full batch
	urgent bool          // items holds a message
	closed bool          // no more items will come: the writer ends when drained
	queued int64         // bytes of the events added and not yet written (eventBytes)
	max    int64         // bound of queued
	over   bool          // queued hit max: drop events until rearm
	onOver func()        // called (without mu) when queued hits max
	dead   bool          // the writer has failed: drop everything
	signal chan struct{} // capacity 1: items or closed changed
	ready  chan struct{} // capacity 1: a frame is due now
}

// outItem is a message or an event (events are batched when written).
type outItem struct {
	msg *ServerMessage // nil for an event
	ev  trace.Event
}

// newOutbox returns an outbox that wakes the writer at once for batch
// events and holds at most maxQueued bytes of unsent events; overflow is
// called when an event does not fit.
func newOutbox(batch int, maxQueued int64, overflow func()) *outbox {
	return &outbox{batch: batch, max: maxQueued, onOver: overflow, signal: make(chan struct{}, 1), ready: make(chan struct{}, 1)}
}

// eventBytes is what an event costs the outbox: the item and the strings
// and objects it points to.
func eventBytes(ev *trace.Event) int64 {
	n := int64(unsafe.Sizeof(outItem{})) + int64(len(ev.Text))
	if ev.GPU != nil {
		n += int64(unsafe.Sizeof(trace.GPU{}))
	}
	if l := ev.Label; l != nil {
		n += int64(unsafe.Sizeof(*l)) + int64(len(l.Kind)+len(l.Name)+len(l.Detail))
	}
	return n
}

func poke(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// send queues a message.
func (o *outbox) send(m ServerMessage) {
	o.mu.Lock()
	if !o.dead && !o.closed {
		o.items = append(o.items, outItem{msg: &m})
		o.urgent = true
	}
	o.mu.Unlock()
	poke(o.signal)
	poke(o.ready)
}

// event queues an event.
func (o *outbox) event(ev trace.Event) {
	size := eventBytes(&ev)
	o.mu.Lock()
	if o.dead || o.closed || o.over {
		o.mu.Unlock()
		return
	}
	if o.queued+size > o.max {
		o.over = true
		o.mu.Unlock()
		o.onOver()
		return
	}
	o.queued += size
	o.items = append(o.items, outItem{ev: ev})
	o.events++
	first, full := o.events == 1, o.events == o.batch
	o.mu.Unlock()
	if first {
		poke(o.signal)
	}
	if full {
		poke(o.ready)
	}
}

// written says that events of n bytes (eventBytes) left the outbox.
func (o *outbox) written(n int64) {
	o.mu.Lock()
	o.queued -= n
	o.mu.Unlock()
}

// rearm accepts events again after an overflow: a new job starts.
func (o *outbox) rearm() {
	o.mu.Lock()
	o.over = false
	o.mu.Unlock()
}

// due reports whether a frame should be written now rather than after the
// flush delay.
func (o *outbox) due() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.urgent || o.closed || o.dead || o.events >= o.batch
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
	o.events = 0
	o.urgent = false
	select { // what is taken is no longer due
	case <-o.ready:
	default:
	}
	return items, o.closed
}

// close says nothing more will be sent.
func (o *outbox) close() {
	o.mu.Lock()
	o.closed = true
	o.mu.Unlock()
	poke(o.signal)
	poke(o.ready)
}

// kill drops what is queued and everything sent later.
func (o *outbox) kill() {
	o.mu.Lock()
	o.dead = true
	o.items = nil
	o.events = 0
	o.queued = 0
	o.mu.Unlock()
}
