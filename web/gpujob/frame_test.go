package gpujob

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/gpumem/playground/sim/trace"
)

// TestFramesMatchEncodingJSON: the hand-built frames are what
// encoding/json writes for the same ServerMessage, and a frame stops at
// its event and byte limits.
func TestFramesMatchEncodingJSON(t *testing.T) {
	rec := loadH100(t)
	items := make([]outItem, len(rec.Events))
	for i, ev := range rec.Events {
		items[i].ev = ev
	}
	for _, tt := range []struct {
		name               string
		maxEvents, maxSize int
		items              []outItem
		wantN              int
	}{
		{"all", 1000, 1 << 20, items, len(items)},
		{"event limit", 5, 1 << 20, items, 5},
		{"byte limit", 1000, 1000, items, 0}, // computed below
		{"one", 1000, 1 << 20, items[3:4], 1},
		{"up to a message", 1000, 1 << 20, append(append([]outItem{}, items[:3]...), outItem{msg: &ServerMessage{Type: MsgDone}}), 3},
	} {
		f := &frames{maxEvents: tt.maxEvents, maxBytes: tt.maxSize}
		got, n := f.appendEvents(tt.items)
		if tt.wantN == 0 { // the byte limit: the frame ends with the event that crossed it
			size := len(eventsPrefix)
			for tt.wantN < len(tt.items) && size < tt.maxSize {
				b, _ := json.Marshal(&tt.items[tt.wantN].ev)
				size += len(b) + 1
				tt.wantN++
			}
		}
		if n != tt.wantN {
			t.Errorf("%s: frame of %d events, want %d", tt.name, n, tt.wantN)
			continue
		}
		evs := make([]trace.Event, n)
		for i := range evs {
			evs[i] = tt.items[i].ev
		}
		m := ServerMessage{Type: MsgEvents, Events: evs}
		if n == 1 {
			m = ServerMessage{Type: MsgEvent, Event: &evs[0]}
		}
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %.300s\nwant %.300s", tt.name, got, want)
		}
	}
}

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
		if m.Type == MsgEvent {
			m.Events = []trace.Event{*m.Event}
		}
		if m.Type != MsgEvents && m.Type != MsgEvent {
			continue
		}
		frames++
		if len(m.Events) > batch {
			t.Errorf("a frame of %d events, MaxBatch %d", len(m.Events), batch)
		}
		for _, ev := range m.Events {
			if ev.Seq != next {
				t.Fatalf("event %d arrived as the %dth", ev.Seq, next)
			}
			next++
		}
		events += len(m.Events)
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
