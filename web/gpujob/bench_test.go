package gpujob

import (
	"testing"
)

// BenchmarkStream100k streams 100 012 recorded events (the H100 fixture's
// 22 events, 4546 times) to a websocket client on localhost, from the run
// message to the done message. events/s is the throughput.
func BenchmarkStream100k(b *testing.B) {
	rec := loadH100(b)
	repeat := (100_000 + len(rec.Events) - 1) / len(rec.Events)
	_, srv, _ := server(b, []Worker{{Name: "GPU 0", Runner: ReplayRunner{Rec: rec, Repeat: repeat}}}, Options{}, HandlerOptions{})
	c := dial(b, srv, nil)
	want := repeat * len(rec.Events)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.send(ClientMessage{Type: MsgRun, Script: rec.Script})
		done, evs := c.until(MsgDone)
		if len(evs) != want || done.Result.Events != want {
			b.Fatalf("%d events received, result says %d, want %d", len(evs), done.Result.Events, want)
		}
	}
	b.ReportMetric(float64(want)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
