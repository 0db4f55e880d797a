package gpujob

import (
	"strings"
	"testing"

	"github.com/gorilla/websocket"
)

// TestFramesAllocateNothingPerEvent: a steady stream costs no allocation.
func TestFramesAllocateNothingPerEvent(t *testing.T) {
	rec := loadH100(t)
	items := make([]outItem, 4096)
	for i := range items {
		items[i].ev = rec.Events[i%len(rec.Events)]
	}
	f := &frames{maxEvents: 4096, maxBytes: 4 << 20}
	f.appendEvents(items) // grows the buffer once
	if a := testing.AllocsPerRun(10, func() { f.appendEvents(items) }); a != 0 {
		t.Errorf("a frame of 4096 events allocated %v times", a)
	}
}

// TestStreamIsBatched: a fast stream of 10 000 events goes out in frames
// that respect MaxBatch, and in few of them.
func TestStreamIsBatched(t *testing.T) {
	rec := loadH100(t)
	const batch = 1000
	repeat := 10_000 / len(rec.Events)
	_, srv, _ := server(t, []Worker{{Name: "GPU 0", Runner: ReplayRunner{Rec: rec, Repeat: repeat}}}, Options{}, HandlerOptions{MaxBatch: batch})
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if err := ws.WriteJSON(ClientMessage{Type: MsgRun, Script: rec.Script}); err != nil {
		t.Fatal(err)
	}
	frames, events, next := 0, 0, 0
	for {
		var m ServerMessage
		if err := ws.ReadJSON(&m); err != nil {
			t.Fatal(err)
		}
		if m.Type == MsgDone {
			break
		}
		if m.Type != MsgRows {
			continue
		}
		evs, err := m.DecodeEvents()
		if err != nil {
			t.Fatal(err)
		}
		frames++
		if len(evs) > batch {
			t.Errorf("a frame of %d events, MaxBatch %d", len(evs), batch)
		}
		for _, ev := range evs {
			if ev.Seq != next {
				t.Fatalf("event %d arrived as the %dth", ev.Seq, next)
			}
			next++
		}
		events += len(evs)
	}
	if want := repeat * len(rec.Events); events != want {
		t.Errorf("%d events, want %d", events, want)
	}
	// Full batches, plus a partial one now and then when the writer
	// catches up with the runner (the flush delay makes that rare).
	if frames > 3*events/batch {
		t.Errorf("%d events came in %d frames: batching does not work", events, frames)
	}
	t.Logf("%d events in %d frames", events, frames)
}
