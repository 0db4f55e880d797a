package gpujob

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/gpumem/playground/sim/trace"
)

// TestProtocolRoundTrip replays the H100 recording through the websocket and
// checks that the client receives exactly its events, then the result.
func TestProtocolRoundTrip(t *testing.T) {
	rec := loadH100(t)
	checks := 0
	_, srv, _ := server(t, []Worker{{
		Name:      "GPU 0",
		Runner:    ReplayRunner{Rec: rec},
		LeakCheck: func() (int64, int64) { checks++; return 554500096, 554500096 },
	}}, Options{}, HandlerOptions{MaxBatch: 5})
	c := dial(t, srv, nil)
	c.send(ClientMessage{Type: MsgRun, Script: rec.Script, Profile: "h100", AllocConf: ""})
	if m := c.expect(MsgStarted); m.Worker != "GPU 0" {
		t.Errorf("started on %q", m.Worker)
	}
	done, evs := c.until(MsgDone)
	if !reflect.DeepEqual(evs, rec.Events) {
		t.Errorf("received %d events, not the recording's %d", len(evs), len(rec.Events))
	}
	r := done.Result
	if r == nil || r.Worker != "GPU 0" || r.Events != len(rec.Events) || r.Stdout != "536870912.0\n" ||
		!strings.HasPrefix(r.Error, "torch.OutOfMemoryError: CUDA out of memory.") || r.UsedBefore != 554500096 || r.UsedAfter != 554500096 {
		t.Errorf("result %+v", r)
	}
	if checks != 1 {
		t.Errorf("leak check ran %d times", checks)
	}
	// The connection takes another job after the first.
	c.send(ClientMessage{Type: MsgRun, Script: "x = 1"})
	c.expect(MsgStarted)
	if _, evs := c.until(MsgDone); len(evs) != len(rec.Events) {
		t.Errorf("second run: %d events", len(evs))
	}
}

// TestEventWireFormat pins the JSON of the messages the page parses.
func TestEventWireFormat(t *testing.T) {
	ev := trace.Event{Seq: 3, Kind: trace.SegmentAlloc, Line: 2, Addr: 0x7f0000000000, Size: 2 << 20, Pool: trace.Small,
		Stats: trace.Stats{Reserved: 2 << 20, Segments: 1}, GPU: &trace.GPU{DriverUsed: 556597248, ElapsedNanos: 136447, DeviceAllocs: 1, DeviceNanos: 106068}}
	for _, tt := range []struct {
		m    ServerMessage
		want string
	}{
		{ServerMessage{Type: MsgQueued, Position: 2}, `{"type":"queued","position":2}`},
		{ServerMessage{Type: MsgStarted, Worker: "GPU 0"}, `{"type":"started","worker":"GPU 0"}`},
		{ServerMessage{Type: MsgError, Code: CodeBusy, Message: "full"}, `{"type":"error","code":"busy","message":"full"}`},
		{ServerMessage{Type: MsgDone, Result: &Result{Worker: "GPU 0", Events: 22, WallNanos: 5}}, `{"type":"done","result":{"worker":"GPU 0","events":22,"wall_ns":5}}`},
	} {
		got, err := json.Marshal(tt.m)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tt.want {
			t.Errorf("%s\nwant %s", got, tt.want)
		}
	}
	// Events: rows.go's format. A line event after it only says what changed.
	line := ev
	line.Seq, line.Kind, line.Line, line.Addr, line.Size, line.Pool = 4, trace.Line, 3, 0, 0, ""
	g := *ev.GPU
	g.ElapsedNanos = 1000
	line.GPU = &g
	const rows = `{"type":"rows","v":1,"rows":[` +
		`[4831,2,"segment_alloc",136447,66,2097152,1,23,556597248,1,106068,139637976727552,2097152,"small",3],` +
		`[7,1,"line",1000]]}`
	if got := encodeFrames([]trace.Event{ev, line}, 10, 1<<20); len(got) != 1 || string(got[0]) != rows {
		t.Errorf("rows %s\nwant %s", got, rows)
	}
	if got := decodeFrames(t, [][]byte{[]byte(rows)}); !reflect.DeepEqual(got, []trace.Event{ev, line}) {
		t.Errorf("decoded %+v", got)
	}
	var m ClientMessage
	if err := json.Unmarshal([]byte(`{"type":"run","script":"x = 1\n","profile":"h100","alloc_conf":"expandable_segments:True"}`), &m); err != nil {
		t.Fatal(err)
	}
	if m != (ClientMessage{Type: MsgRun, Script: "x = 1\n", Profile: "h100", AllocConf: "expandable_segments:True"}) {
		t.Errorf("decoded %+v", m)
	}
}

// TestQueuePositionsOverWebsocket: three clients, one GPU.
func TestQueuePositionsOverWebsocket(t *testing.T) {
	g := newGate(t)
	q, srv, _ := server(t, []Worker{{Name: "GPU 0", Runner: g}}, Options{}, HandlerOptions{})
	a, b, c := dial(t, srv, nil), dial(t, srv, nil), dial(t, srv, nil)
	a.send(ClientMessage{Type: MsgRun, Script: "a"})
	a.expect(MsgStarted)
	<-g.started
	b.send(ClientMessage{Type: MsgRun, Script: "b"})
	if m := b.expect(MsgQueued); m.Position != 1 {
		t.Errorf("b at position %d, want 1", m.Position)
	}
	c.send(ClientMessage{Type: MsgRun, Script: "c"})
	if m := c.expect(MsgQueued); m.Position != 2 {
		t.Errorf("c at position %d, want 2", m.Position)
	}
	// b leaves: c moves up, and b's job never runs.
	b.ws.Close()
	if m := c.expect(MsgQueued); m.Position != 1 {
		t.Errorf("c at position %d after b left, want 1", m.Position)
	}
	g.open <- struct{}{} // a finishes
	a.until(MsgDone)
	c.expect(MsgStarted)
	if s := <-g.started; s != "c" {
		t.Errorf("after a, the GPU ran %q, want c", s)
	}
	g.finishAll()
	c.until(MsgDone)
	waitFor(t, "counters", func() bool {
		s := q.Stats()
		return s.Completed == 2 && s.Cancelled == 1 && s.Waiting == 0 && s.Running == 0
	})
}

// TestCancelOnDisconnect: the browser goes away mid-run; the runner's
// context is cancelled and the GPU is free for the next user.
func TestCancelOnDisconnect(t *testing.T) {
	g := newGate(t)
	q, srv, _ := server(t, []Worker{{Name: "GPU 0", Runner: g}}, Options{}, HandlerOptions{})
	a := dial(t, srv, nil)
	a.send(ClientMessage{Type: MsgRun, Script: "a"})
	a.expect(MsgStarted)
	<-g.started
	a.ws.Close()
	select {
	case <-g.cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the runner was not cancelled when the client disconnected")
	}
	waitFor(t, "the GPU to be released", func() bool { return q.Stats().Running == 0 })
	g.finishAll()
	b := dial(t, srv, nil)
	b.send(ClientMessage{Type: MsgRun, Script: "b"})
	b.expect(MsgStarted)
	b.until(MsgDone)
	if s := q.Stats(); s.Cancelled != 1 || s.Completed != 1 {
		t.Errorf("stats %+v", s)
	}
}

// TestCancelMessage: {"type":"cancel"} stops the running job.
func TestCancelMessage(t *testing.T) {
	g := newGate(t)
	_, srv, _ := server(t, []Worker{{Name: "GPU 0", Runner: g}}, Options{}, HandlerOptions{})
	a := dial(t, srv, nil)
	a.send(ClientMessage{Type: MsgRun, Script: "a"})
	a.expect(MsgStarted)
	<-g.started
	a.send(ClientMessage{Type: MsgCancel})
	if m, _ := a.until(MsgError); m.Code != CodeCancelled {
		t.Errorf("got %+v, want code %q", m, CodeCancelled)
	}
}

// TestLimitsOverWebsocket: each limit stops a job with code "limit".
func TestLimitsOverWebsocket(t *testing.T) {
	chatty := RunnerFunc(func(ctx context.Context, job Job, emit func(trace.Event)) (Result, error) {
		for i := 0; ctx.Err() == nil; i++ {
			emit(trace.Event{Seq: i, Kind: trace.Output, Text: strings.Repeat("x", 100)})
		}
		return Result{}, ctx.Err()
	})
	for _, tt := range []struct {
		name   string
		runner Runner
		limits Limits
		script string
		want   string
	}{
		{"wall time", newGate(t), Limits{MaxWall: 50 * time.Millisecond}, "s", "wall-time limit of 50ms"},
		{"output", chatty, Limits{MaxOutput: 1000}, "s", "output exceeded its limit of 1000 bytes"},
		{"events", chatty, Limits{MaxEvents: 20}, "s", "more than 20 events"},
		{"script size", newGate(t), Limits{MaxScript: 10}, "0123456789A", "script size exceeded its limit of 10 bytes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, srv, _ := server(t, []Worker{{Name: "GPU 0", Runner: tt.runner}}, Options{}, HandlerOptions{Limits: tt.limits})
			c := dial(t, srv, nil)
			c.send(ClientMessage{Type: MsgRun, Script: tt.script})
			m, evs := c.until(MsgError)
			if m.Code != CodeLimit || !strings.Contains(m.Message, tt.want) {
				t.Errorf("got %+v, want code limit and %q", m, tt.want)
			}
			if tt.limits.MaxEvents > 0 && len(evs) != tt.limits.MaxEvents {
				t.Errorf("%d events delivered, limit %d", len(evs), tt.limits.MaxEvents)
			}
			if tt.limits.MaxOutput > 0 && int64(len(evs))*100 > tt.limits.MaxOutput {
				t.Errorf("%d output bytes delivered, limit %d", len(evs)*100, tt.limits.MaxOutput)
			}
		})
	}
}

// TestReadLimit: a message beyond the script limit closes the connection.
func TestReadLimit(t *testing.T) {
	_, srv, _ := server(t, []Worker{{Name: "GPU 0", Runner: newGate(t)}}, Options{}, HandlerOptions{Limits: Limits{MaxScript: 1000}})
	c := dial(t, srv, nil)
	// The server may close the connection while the oversized message is
	// still being written: a write error ("connection reset") is a pass too.
	if err := c.ws.WriteJSON(ClientMessage{Type: MsgRun, Script: strings.Repeat("x", 10_000)}); err != nil {
		return
	}
	select {
	case _, ok := <-c.msgs:
		if ok {
			t.Error("the server answered an oversized message instead of closing")
		}
	case <-time.After(5 * time.Second):
		t.Error("the connection stayed open after an oversized message")
	}
}

// TestLeakFailsLoudly: a leak check that does not balance fails the job
// with code "leak", is logged and counted.
func TestLeakFailsLoudly(t *testing.T) {
	rec := loadH100(t)
	q, srv, logs := server(t, []Worker{{
		Name:      "GPU 0",
		Runner:    ReplayRunner{Rec: rec},
		LeakCheck: func() (int64, int64) { return 554500096, 556597248 },
	}}, Options{}, HandlerOptions{})
	c := dial(t, srv, nil)
	c.send(ClientMessage{Type: MsgRun, Script: rec.Script})
	m, evs := c.until(MsgError)
	if m.Code != CodeLeak || !strings.Contains(m.Message, "+2097152") {
		t.Errorf("got %+v", m)
	}
	if len(evs) != len(rec.Events) {
		t.Errorf("%d events before the leak report", len(evs))
	}
	if q.Stats().Leaks != 1 || !strings.Contains(logs.String(), "not returned") {
		t.Errorf("leak not counted or logged: %+v, log %q", q.Stats(), logs.String())
	}
}

// TestSameOrigin: a page from another origin cannot open the socket.
func TestSameOrigin(t *testing.T) {
	_, srv, _ := server(t, []Worker{{Name: "GPU 0", Runner: newGate(t)}}, Options{}, HandlerOptions{})
	url := "ws" + strings.TrimPrefix(srv.URL, "http")
	_, resp, err := websocket.DefaultDialer.Dial(url, http.Header{"Origin": {"https://evil.example"}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-origin dial: err %v, response %v; want 403", err, resp)
	}
	c := dial(t, srv, http.Header{"Origin": {srv.URL}})
	c.send(ClientMessage{Type: "nonsense"})
	if m := c.expect(MsgError); m.Code != CodeBadRequest {
		t.Errorf("got %+v", m)
	}
}

// TestBadRequests: malformed JSON and a second job on one connection.
func TestBadRequests(t *testing.T) {
	g := newGate(t)
	_, srv, _ := server(t, []Worker{{Name: "GPU 0", Runner: g}}, Options{}, HandlerOptions{})
	c := dial(t, srv, nil)
	if err := c.ws.WriteMessage(websocket.TextMessage, []byte("{not json")); err != nil {
		t.Fatal(err)
	}
	if m := c.expect(MsgError); m.Code != CodeBadRequest || !strings.Contains(m.Message, "malformed") {
		t.Errorf("got %+v", m)
	}
	c.send(ClientMessage{Type: MsgRun, Script: "a"})
	c.expect(MsgStarted)
	<-g.started
	c.send(ClientMessage{Type: MsgRun, Script: "b"})
	if m, _ := c.until(MsgError); m.Code != CodeBadRequest || !strings.Contains(m.Message, "already running") {
		t.Errorf("got %+v", m)
	}
	g.finishAll()
	c.until(MsgDone)
}

// TestRunnerPanic: a panicking runner fails its job, not the server.
func TestRunnerPanic(t *testing.T) {
	calls := 0
	boom := RunnerFunc(func(ctx context.Context, job Job, emit func(trace.Event)) (Result, error) {
		calls++
		if calls == 1 {
			panic("kernel table corrupt")
		}
		return Result{Stdout: "fine\n"}, nil
	})
	_, srv, _ := server(t, []Worker{{Name: "GPU 0", Runner: boom}}, Options{}, HandlerOptions{})
	c := dial(t, srv, nil)
	c.send(ClientMessage{Type: MsgRun, Script: "a"})
	if m, _ := c.until(MsgError); m.Code != CodeInternal || !strings.Contains(m.Message, "kernel table corrupt") {
		t.Errorf("got %+v", m)
	}
	c.send(ClientMessage{Type: MsgRun, Script: "a"})
	if m, _ := c.until(MsgDone); m.Result.Stdout != "fine\n" {
		t.Errorf("got %+v", m)
	}
}
