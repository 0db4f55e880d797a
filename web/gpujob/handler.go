package gpujob

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// HandlerOptions configure a Handler. Zero fields take the defaults shown.
type HandlerOptions struct {
	Limits   Limits // per job; zero value: DefaultLimits()
	MaxBatch int    // most events per "events" message: 4096
	// MaxFrameBytes closes an "events" message once it is this long: 1 MiB.
	MaxFrameBytes int
	// FlushDelay is how long queued events wait for more before they are
	// written (a full batch, a message or the end goes at once): 5 ms.
	// Few large frames cost the page far less than many small ones.
	FlushDelay time.Duration
	// MaxQueuedBytes bounds a connection's events waiting to be sent
	// (eventBytes: their size in memory): a client that reads slower than
	// its job makes events gets the job cancelled with a
	// *SlowClientError once they pass it: 32 MiB. Keep it well above
	// MaxBatch events (~250 bytes each), which the writer waits for.
	MaxQueuedBytes int64
	WriteWait      time.Duration // deadline of one write: 10 s
	PongWait       time.Duration // the client must answer a ping within: 60 s (pings every 9/10 of it)
	Log            *log.Logger   // upgrade failures; nil: log.Default()
}

// Handler serves the GPU websocket: each connection runs one job at a time
// through the Queue and streams its events.
type Handler struct {
	q        *Queue
	opts     HandlerOptions
	upgrader websocket.Upgrader
}

// NewHandler returns the websocket handler for q. Its upgrader keeps
// gorilla's default CheckOrigin, which accepts only same-origin pages (or
// clients that send no Origin, i.e. not browsers).
func NewHandler(q *Queue, opts HandlerOptions) *Handler {
	if opts.Limits == (Limits{}) {
		opts.Limits = DefaultLimits()
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = 4096
	}
	if opts.MaxFrameBytes <= 0 {
		opts.MaxFrameBytes = 1 << 20
	}
	if opts.FlushDelay <= 0 {
		opts.FlushDelay = 5 * time.Millisecond
	}
	if opts.MaxQueuedBytes <= 0 {
		opts.MaxQueuedBytes = 32 << 20
	}
	if opts.WriteWait <= 0 {
		opts.WriteWait = 10 * time.Second
	}
	if opts.PongWait <= 0 {
		opts.PongWait = 60 * time.Second
	}
	if opts.Log == nil {
		opts.Log = log.Default()
	}
	return &Handler{q: q, opts: opts, upgrader: websocket.Upgrader{ReadBufferSize: 4096, WriteBufferSize: 64 << 10}}
}

// readLimit is the largest client message accepted: a script at the size
// limit, room for JSON escaping of quotes, backslashes and newlines (×2),
// and the envelope. A larger message closes the connection.
func (h *Handler) readLimit() int64 {
	if h.opts.Limits.MaxScript <= 0 {
		return 16 << 20
	}
	return 2*int64(h.opts.Limits.MaxScript) + 4096
}

// ServeHTTP upgrades the request and serves the connection until the client
// goes away; then it cancels the connection's job and waits for it.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ws, err := h.upgrader.Upgrade(w, r, nil) // replies with an HTTP error itself
	if err != nil {
		h.opts.Log.Printf("gpujob: websocket upgrade from %s: %v", r.RemoteAddr, err)
		return
	}
	c := &conn{h: h, ws: ws}
	c.out = newOutbox(h.opts.MaxBatch, h.opts.MaxQueuedBytes, c.overflow)
	ctx, cancel := context.WithCancel(r.Context())
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		c.writePump()
	}()
	c.readPump(ctx)
	cancel()
	c.jobs.Wait()
	c.out.close()
	<-writerDone
	ws.Close()
}

// conn is one websocket connection.
type conn struct {
	h   *Handler
	ws  *websocket.Conn
	out *outbox

	mu        sync.Mutex
	jobCancel context.CancelCauseFunc // the running job's, nil when none
	jobs      sync.WaitGroup
}

// readPump reads client messages until the connection fails or closes.
func (c *conn) readPump(ctx context.Context) {
	c.ws.SetReadLimit(c.h.readLimit())
	c.ws.SetReadDeadline(time.Now().Add(c.h.opts.PongWait))
	c.ws.SetPongHandler(func(string) error {
		return c.ws.SetReadDeadline(time.Now().Add(c.h.opts.PongWait))
	})
	for {
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			return
		}
		var m ClientMessage
		if err := json.Unmarshal(data, &m); err != nil {
			c.out.send(ServerMessage{Type: MsgError, Code: CodeBadRequest, Message: fmt.Sprintf("gpujob: malformed message: %v", err)})
			continue
		}
		switch m.Type {
		case MsgRun:
			c.start(ctx, m)
		case MsgCancel:
			c.mu.Lock()
			if c.jobCancel != nil {
				c.jobCancel(nil)
			}
			c.mu.Unlock()
		default:
			c.out.send(ServerMessage{Type: MsgError, Code: CodeBadRequest, Message: fmt.Sprintf("gpujob: unknown message type %q", m.Type)})
		}
	}
}

// start submits a job unless one is already running on this connection.
func (c *conn) start(ctx context.Context, m ClientMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.jobCancel != nil {
		c.out.send(ServerMessage{Type: MsgError, Code: CodeBadRequest, Message: "gpujob: a job is already running on this connection"})
		return
	}
	jobCtx, cancel := context.WithCancelCause(ctx)
	c.jobCancel = cancel
	c.out.rearm()
	c.jobs.Add(1)
	job := Job{Script: m.Script, Profile: m.Profile, AllocConf: m.AllocConf, Limits: c.h.opts.Limits}
	go func() {
		defer c.jobs.Done()
		res, err := c.h.q.Submit(jobCtx, job, Notifier{
			Queued:  func(p int) { c.out.send(ServerMessage{Type: MsgQueued, Position: p}) },
			Started: func(w string) { c.out.send(ServerMessage{Type: MsgStarted, Worker: w}) },
			Event:   c.out.event,
		})
		c.mu.Lock()
		c.jobCancel = nil
		c.mu.Unlock()
		cancel(nil)
		if err != nil {
			c.out.send(errorMessage(err))
			return
		}
		c.out.send(ServerMessage{Type: MsgDone, Result: &res})
	}()
}

// overflow cancels the running job: the client does not read its events
// fast enough (the outbox passed MaxQueuedBytes).
func (c *conn) overflow() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.jobCancel != nil {
		c.jobCancel(&SlowClientError{MaxQueued: c.h.opts.MaxQueuedBytes})
	}
}

// writePump is the connection's only writer: it drains the outbox, batching
// consecutive events, and pings the client. When a write fails it closes
// the connection, which ends readPump and so cancels the job.
func (c *conn) writePump() {
	ping := time.NewTicker(c.h.opts.PongWait * 9 / 10)
	defer ping.Stop()
	wait := time.NewTimer(time.Hour)
	wait.Stop()
	var items []outItem
	f := &frames{maxEvents: c.h.opts.MaxBatch, maxBytes: c.h.opts.MaxFrameBytes}
	fail := func() {
		c.out.kill()
		c.ws.Close()
	}
	for {
		select {
		case <-c.out.signal:
			if !c.out.due() { // only events so far: let more come
				wait.Reset(c.h.opts.FlushDelay)
				select {
				case <-wait.C:
				case <-c.out.ready:
					wait.Stop()
				}
			}
			var closed bool
			items, closed = c.out.take(items)
			if err := c.writeItems(items, f); err != nil {
				fail()
				return
			}
			if closed {
				c.ws.SetWriteDeadline(time.Now().Add(c.h.opts.WriteWait))
				c.ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
				return
			}
		case <-ping.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(c.h.opts.WriteWait)); err != nil {
				fail()
				return
			}
		}
	}
}

// writeItems writes messages in order, consecutive events as frames of up
// to MaxBatch events and about MaxFrameBytes bytes.
func (c *conn) writeItems(items []outItem, f *frames) error {
	for i := 0; i < len(items); {
		var (
			b    []byte
			err  error
			sent int64 // event bytes in b
		)
		if m := items[i].msg; m != nil {
			if b, err = f.message(m); err != nil {
				return err
			}
			i++
		} else {
			var n int
			b, n = f.appendEvents(items[i:])
			for j := i; j < i+n; j++ {
				sent += eventBytes(&items[j].ev)
			}
			i += n
		}
		if err := c.write(b); err != nil {
			return err
		}
		c.out.written(sent)
	}
	return nil
}

// write sends one text message under the write deadline.
func (c *conn) write(b []byte) error {
	c.ws.SetWriteDeadline(time.Now().Add(c.h.opts.WriteWait))
	return c.ws.WriteMessage(websocket.TextMessage, b)
}
