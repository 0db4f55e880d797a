package e2e

import (
	"os"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gpumem/playground/web/gpujob"
)

// BenchmarkBrowserGPUStream100k measures the delivery of a GPU job's event
// stream to the page: the server's GPU worker replays the H100 recording
// (web/gpujob/testdata/h100-stream.json, 22 events) 4546 times, 100 012
// events, 4.8 MiB in the compact row format (web/gpujob/rows.go; 44 MB as
// trace.Event JSON).
//
// page: headless Chromium clicks "Run on GPU"; the page's own clock runs
// from the click until it has received and decoded every event (into the
// job's EventLog, web/js/gpustream.js) and handled the done message
// (web/js/gpuview.js sets #gpu-panel's data-ms then). Metrics: page-ms/op,
// first-ms (the first run), handler-ms/op (time in the page's message
// handler, JSON.parse and decoding included), frames/op, events/s.
//
// socket: the floor under that: the same job over a bare WebSocket whose
// handler only counts bytes: what Chromium's transport costs by itself.
func BenchmarkBrowserGPUStream100k(b *testing.B) {
	exe := chromium()
	if exe == "" {
		b.Skip("Chromium not found")
	}
	f, err := os.Open("../gpujob/testdata/h100-stream.json")
	if err != nil {
		b.Fatal(err)
	}
	rec, err := gpujob.ReadRecording(f)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	repeat := (100_000 + len(rec.Events) - 1) / len(rec.Events)
	want := repeat * len(rec.Events)
	hs, _, hasWasm := gpuPage(b, []gpujob.Worker{{Name: "GPU 0 (replay)", Runner: gpujob.ReplayRunner{Rec: rec, Repeat: repeat}}})
	ctx, cancel := browser(b, exe)
	defer cancel()
	load := []chromedp.Action{chromedp.Navigate(hs.URL + "/")}
	if hasWasm {
		load = append(load, waitRuns(1)) // the page's own first simulation is over
	}
	load = append(load, chromedp.WaitVisible(`#gpu-button`, chromedp.ByQuery))
	if err := chromedp.Run(ctx, load...); err != nil {
		b.Fatal(err)
	}
	b.Run("page", func(b *testing.B) {
		const run = `new Promise((resolve) => {
			const p = document.getElementById('gpu-panel');
			const timeout = setTimeout(() => resolve({ ms: -1, events: Number(p.dataset.events || 0), state: p.dataset.state || '' }), 60000);
			p.addEventListener('gpu-done', (e) => {
				clearTimeout(timeout);
				resolve({ ms: Number(p.dataset.ms), busy: Number(p.dataset.busyMs), frames: Number(p.dataset.frames), events: e.detail.events, state: p.dataset.state });
			}, { once: true });
			document.getElementById('gpu-button').click();
		})`
		type result struct {
			Ms     float64 `json:"ms"`
			Busy   float64 `json:"busy"`
			Frames int     `json:"frames"`
			Events int     `json:"events"`
			State  string  `json:"state"`
		}
		var total, first, busy float64
		frames := 0
		n := 0
		for b.Loop() {
			var r result
			if err := chromedp.Run(ctx, chromedp.Evaluate(run, &r, awaitPromise)); err != nil {
				b.Fatal(err)
			}
			if r.Ms < 0 || r.Events != want || r.State != "done" {
				b.Fatalf("the page got %d of %d events (state %q, ms %v)", r.Events, want, r.State, r.Ms)
			}
			if n == 0 {
				first = r.Ms
			}
			total += r.Ms
			busy += r.Busy
			frames += r.Frames
			n++
		}
		b.ReportMetric(total/float64(n), "page-ms/op")
		b.ReportMetric(first, "first-ms")
		b.ReportMetric(busy/float64(n), "handler-ms/op")
		b.ReportMetric(float64(frames)/float64(n), "frames/op")
		b.ReportMetric(float64(want)*float64(n)/(total/1000), "events/s")
	})

	// socket: the floor under the page: the same job over a bare WebSocket
	// opened in the page, whose handler only counts frames and bytes.
	b.Run("socket", func(b *testing.B) {
		script := `new Promise((resolve) => {
			const t0 = performance.now();
			const ws = new WebSocket('ws://' + location.host + '/gpu/ws');
			let frames = 0, bytes = 0;
			ws.onopen = () => ws.send(JSON.stringify({ type: 'run', script: 'x' }));
			ws.onmessage = (m) => {
				frames++;
				bytes += m.data.length;
				if (m.data.startsWith('{"type":"done"') || m.data.startsWith('{"type":"error"')) {
					ws.close();
					resolve({ ms: performance.now() - t0, frames, bytes, ok: m.data.startsWith('{"type":"done"') });
				}
			};
		})`
		var total float64
		var r struct {
			Ms     float64 `json:"ms"`
			Frames int     `json:"frames"`
			Bytes  int     `json:"bytes"`
			OK     bool    `json:"ok"`
		}
		for b.Loop() {
			if err := chromedp.Run(ctx, chromedp.Evaluate(script, &r, awaitPromise)); err != nil {
				b.Fatal(err)
			}
			if !r.OK {
				b.Fatal("the job failed")
			}
			total += r.Ms
		}
		b.ReportMetric(total/float64(b.N), "page-ms/op")
		b.ReportMetric(float64(r.Bytes)/(1<<20), "MiB")
		b.ReportMetric(float64(want)*float64(b.N)/(total/1000), "events/s")
	})
}
