package gpujob

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/gpumem/playground/sim/trace"
)

// TestOutboxBound: events stop at the byte bound, with one overflow call;
// messages still go in; written events make room again.
func TestOutboxBound(t *testing.T) {
	overflows := 0
	ev := trace.Event{Kind: trace.Output, Text: strings.Repeat("x", 100)}
	size := eventBytes(&ev)
	o := newOutbox(1000, 10*size, func() { overflows++ })
	for range 15 {
		o.event(ev)
	}
	o.send(ServerMessage{Type: MsgError, Code: CodeSlow})
	items, _ := o.take(nil)
	if len(items) != 11 || items[10].msg == nil || overflows != 1 {
		t.Fatalf("%d items (want 10 events and the message), %d overflows", len(items), overflows)
	}
	o.written(10 * size)
	o.event(ev)
	if items, _ := o.take(nil); len(items) != 0 {
		t.Errorf("an event was taken after the overflow, before rearm")
	}
	o.rearm()
	o.event(ev)
	if items, _ := o.take(nil); len(items) != 1 || overflows != 1 {
		t.Errorf("after rearm: %d items, %d overflows", len(items), overflows)
	}
	if eventBytes(&trace.Event{Label: &trace.Label{Name: "abc"}, GPU: &trace.GPU{}}) <= eventBytes(&trace.Event{}) {
		t.Errorf("eventBytes does not count labels and GPU figures")
	}
}

// TestSlowClientIsCancelled: a client that stops reading gets its job
// cancelled once its unsent events pass MaxQueuedBytes, the GPU goes to
// the next client at once, and the slow client, when it reads again,
// finds its events without a gap, then the error that says why.
func TestSlowClientIsCancelled(t *testing.T) {
	rec := loadH100(t)
	long, short := ReplayRunner{Rec: rec, Repeat: 1_000_000}, ReplayRunner{Rec: rec, Repeat: 100} // 22 M events, 2200
	runner := RunnerFunc(func(ctx context.Context, job Job, emit func(trace.Event)) (Result, error) {
		if job.Script == "long" { // paced (~250 000 events/s at most), so that a reading client keeps up
			n := 0
			return long.Run(ctx, job, func(ev trace.Event) {
				if n++; n%256 == 0 {
					time.Sleep(time.Millisecond)
				}
				emit(ev)
			})
		}
		return short.Run(ctx, job, emit)
	})
	q, srv, _ := server(t, []Worker{{Name: "GPU 0", Runner: runner}}, Options{},
		HandlerOptions{Limits: Limits{MaxWall: time.Minute}, MaxQueuedBytes: 1 << 20, MaxBatch: 256})
	slow, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	if err := slow.WriteJSON(ClientMessage{Type: MsgRun, Script: "long"}); err != nil {
		t.Fatal(err)
	}
	// It reads nothing; its job is cancelled when 1 MiB of events wait.
	waitFor(t, "the slow client's job to be cancelled", func() bool { s := q.Stats(); return s.Cancelled == 1 && s.Running == 0 })

	// Another client gets the GPU and its whole stream (2200 events,
	// less than 1 MiB even if it read nothing before the end).
	fast := dial(t, srv, nil)
	fast.send(ClientMessage{Type: MsgRun, Script: "short"})
	fast.expect(MsgStarted)
	if m, evs := fast.until(MsgDone); len(evs) != 100*len(rec.Events) || m.Result.Events != len(evs) {
		t.Errorf("the next client: %d events, result %+v", len(evs), m.Result)
	}

	// The slow client reads again: its events from 0 without a gap, then
	// the error.
	slow.SetReadDeadline(time.Now().Add(30 * time.Second))
	next := 0
	for {
		_, data, err := slow.ReadMessage()
		if err != nil {
			t.Fatalf("after %d events: %v", next, err)
		}
		var m ServerMessage
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		switch m.Type {
		case MsgRows:
			evs, err := m.DecodeEvents()
			if err != nil {
				t.Fatal(err)
			}
			for _, ev := range evs {
				if ev.Seq != next {
					t.Fatalf("event %d arrived as the %dth", ev.Seq, next)
				}
				next++
			}
			continue
		case MsgStarted:
			continue
		case MsgError:
			if m.Code != CodeSlow || !strings.Contains(m.Message, "the browser could not keep up with the event stream") {
				t.Errorf("error %+v", m)
			}
		default:
			t.Errorf("unexpected %+v", m)
		}
		break
	}
	t.Logf("the slow client got %d events before its job was cancelled", next)
	// More than the outbox holds: the socket's buffers took some first,
	// i.e. the client really stopped reading.
	if held := (1 << 20) / int(eventBytes(&rec.Events[2])); next <= held || next >= 1_000_000*len(rec.Events) {
		t.Errorf("%d events, the outbox holds %d", next, held)
	}
}
