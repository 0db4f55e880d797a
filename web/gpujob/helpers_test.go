package gpujob

import (
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/gpumem/playground/sim/trace"
)

// loadH100 reads the recorded fixture.
func loadH100(t testing.TB) *Recording {
	t.Helper()
	f, err := os.Open("testdata/h100-stream.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := ReadRecording(f)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// quietLog collects the queue's log lines.
type quietLog struct {
	mu    sync.Mutex
	lines []string
}

func (q *quietLog) Write(p []byte) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.lines = append(q.lines, string(p))
	return len(p), nil
}

func (q *quietLog) String() string {
	q.mu.Lock()
	defer q.mu.Unlock()
	return strings.Join(q.lines, "")
}

// gate is a runner that emits one event, then waits until it is opened or
// its context ends; it reports the cancellations it saw.
type gate struct {
	open      chan struct{} // a send lets one job finish
	all       chan struct{} // closed: every job finishes
	once      sync.Once
	started   chan string // the job's script, when it starts
	cancelled chan error
}

// newGate returns a gate that opens for good when t ends, so that no
// runner outlives its test.
func newGate(t testing.TB) *gate {
	g := &gate{open: make(chan struct{}), all: make(chan struct{}), started: make(chan string, 64), cancelled: make(chan error, 64)}
	t.Cleanup(g.finishAll)
	return g
}

// finishAll lets every job, current and future, finish.
func (g *gate) finishAll() { g.once.Do(func() { close(g.all) }) }

func (g *gate) Run(ctx context.Context, job Job, emit func(trace.Event)) (Result, error) {
	g.started <- job.Script
	emit(trace.Event{Kind: trace.Line, Line: 1})
	select {
	case <-g.open:
		return Result{Stdout: "ok\n"}, nil
	case <-g.all:
		return Result{Stdout: "ok\n"}, nil
	case <-ctx.Done():
		g.cancelled <- context.Cause(ctx)
		return Result{}, ctx.Err()
	}
}

// server starts an httptest server with a queue over workers.
func server(t testing.TB, workers []Worker, qopts Options, hopts HandlerOptions) (*Queue, *httptest.Server, *quietLog) {
	t.Helper()
	logs := &quietLog{}
	if qopts.Log == nil {
		qopts.Log = log.New(logs, "", 0)
	}
	if hopts.Log == nil {
		hopts.Log = log.New(logs, "", 0)
	}
	q, err := NewQueue(workers, qopts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(NewHandler(q, hopts))
	t.Cleanup(func() {
		srv.Close()
		q.Close()
	})
	return q, srv, logs
}

// client is a websocket client that collects the server's messages.
type client struct {
	t    testing.TB
	ws   *websocket.Conn
	msgs chan ServerMessage
}

func dial(t testing.TB, srv *httptest.Server, header http.Header) *client {
	t.Helper()
	url := "ws" + strings.TrimPrefix(srv.URL, "http")
	ws, resp, err := websocket.DefaultDialer.Dial(url, header)
	if err != nil {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		t.Fatalf("dial: %v (HTTP %d)", err, status)
	}
	c := &client{t: t, ws: ws, msgs: make(chan ServerMessage, 1024)}
	go func() {
		defer close(c.msgs)
		for {
			var m ServerMessage
			if err := ws.ReadJSON(&m); err != nil {
				return
			}
			c.msgs <- m
		}
	}()
	t.Cleanup(func() { ws.Close() })
	return c
}

func (c *client) send(m ClientMessage) {
	c.t.Helper()
	if err := c.ws.WriteJSON(m); err != nil {
		c.t.Fatal(err)
	}
}

// next returns the next message, failing after a timeout.
func (c *client) next() ServerMessage {
	c.t.Helper()
	select {
	case m, ok := <-c.msgs:
		if !ok {
			c.t.Fatal("connection closed while a message was expected")
		}
		return m
	case <-time.After(5 * time.Second):
		c.t.Fatal("no message within 5 s")
	}
	return ServerMessage{}
}

// expect returns the next message, which must be of type typ.
func (c *client) expect(typ string) ServerMessage {
	c.t.Helper()
	m := c.next()
	if m.Type != typ {
		c.t.Fatalf("got %+v, want a %q message", m, typ)
	}
	return m
}

// until reads messages until one of type typ, returning the events seen.
func (c *client) until(typ string) (ServerMessage, []trace.Event) {
	c.t.Helper()
	var evs []trace.Event
	for {
		m := c.next()
		if m.Type == MsgRows {
			got, err := m.DecodeEvents()
			if err != nil {
				c.t.Fatal(err)
			}
			evs = append(evs, got...)
		}
		if m.Type == typ {
			return m, evs
		}
	}
}

// waitFor polls cond for up to 5 s.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

var _ io.Writer = (*quietLog)(nil)
