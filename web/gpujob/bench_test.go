package gpujob

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// BenchmarkStream100k streams 100 012 recorded events (the H100 fixture's
// 22 events, 4546 times) to a websocket client on localhost, from the run
// message to the done message. events/s is the throughput, frames/op how
// many websocket messages carried them.
//
// raw: the client reads the messages without decoding them (the done
// message says how many events were sent): the server and the transport.
// decoded: the client decodes every message as the test clients do:
// encoding/json into ServerMessage, then DecodeEvents (rows_decode.go).
func BenchmarkStream100k(b *testing.B) {
	rec := loadH100(b)
	repeat := (100_000 + len(rec.Events) - 1) / len(rec.Events)
	want := repeat * len(rec.Events)
	_, srv, _ := server(b, []Worker{{Name: "GPU 0", Runner: ReplayRunner{Rec: rec, Repeat: repeat}}}, Options{}, HandlerOptions{})

	b.Run("raw", func(b *testing.B) {
		ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer ws.Close()
		run, _ := json.Marshal(ClientMessage{Type: MsgRun, Script: rec.Script})
		done := []byte(`{"type":"done"`)
		frames, bytesIn := 0, 0
		for b.Loop() {
			if err := ws.WriteMessage(websocket.TextMessage, run); err != nil {
				b.Fatal(err)
			}
			n := 0
			ws.SetReadDeadline(time.Now().Add(time.Minute))
			for {
				_, data, err := ws.ReadMessage()
				if err != nil {
					b.Fatal(err)
				}
				frames++
				bytesIn += len(data)
				if bytes.HasPrefix(data, done) {
					var m ServerMessage
					if err := json.Unmarshal(data, &m); err != nil {
						b.Fatal(err)
					}
					n = m.Result.Events
					break
				}
			}
			if n != want {
				b.Fatalf("%d events received, want %d", n, want)
			}
		}
		b.ReportMetric(float64(want)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		b.ReportMetric(float64(frames)/float64(b.N), "frames/op")
		b.ReportMetric(float64(bytesIn)/float64(b.N)/(1<<20), "MiB/op")
		b.ReportMetric(float64(bytesIn)/float64(b.N)/float64(want), "B/event")
	})

	b.Run("decoded", func(b *testing.B) {
		c := dial(b, srv, nil)
		for b.Loop() {
			c.send(ClientMessage{Type: MsgRun, Script: rec.Script})
			done, evs := c.until(MsgDone)
			if len(evs) != want || done.Result.Events != want {
				b.Fatalf("%d events received, result says %d, want %d", len(evs), done.Result.Events, want)
			}
		}
		b.ReportMetric(float64(want)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	})
}
