package e2e

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/gpumem/playground/wasm/bridge"
	"github.com/gpumem/playground/web"
	"github.com/gpumem/playground/web/examples"
)

// BenchmarkBrowserGPTStep times one simulation of the GPT training-step
// example (p021_gpt_block: two AdamW steps of a 2-block GPT) inside headless
// Chromium, through the same playgroundRun call the page makes, JSON parse
// of the result included. The page has already run the default example, as
// after a first visit. Metrics: mean ms per run, the first run's ms (V8 has
// not yet optimised the module's hot functions) and events per run.
func BenchmarkBrowserGPTStep(b *testing.B) {
	exe := chromium()
	if exe == "" {
		b.Skip("Chromium not found")
	}
	srv, err := web.NewServer(web.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if !srv.HasWasm() {
		b.Skip("built without the wasm module (make build)")
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	ctx, cancel := browser(b, exe)
	defer cancel()
	ex, ok := examples.Lookup("p021_gpt_block")
	if !ok {
		b.Fatal("example p021_gpt_block missing")
	}
	req, _ := json.Marshal(bridge.Request{Script: ex.Source})
	call := `(async () => {
		const t0 = performance.now();
		const r = JSON.parse(await globalThis.playgroundRun(` + jsString(string(req)) + `));
		return { ms: performance.now() - t0, events: (r.events || []).length, hostError: r.hostError || '' };
	})()`
	if err := chromedp.Run(ctx, chromedp.Navigate(hs.URL+"/"), waitRuns(1)); err != nil {
		b.Fatal(err)
	}
	type result struct {
		Ms        float64 `json:"ms"`
		Events    int     `json:"events"`
		HostError string  `json:"hostError"`
	}
	var r result
	var total, first float64
	b.ResetTimer()
	for b.Loop() {
		if err := chromedp.Run(ctx, chromedp.Evaluate(call, &r, awaitPromise)); err != nil {
			b.Fatal(err)
		}
		if first == 0 {
			first = r.Ms
		}
		total += r.Ms
	}
	if r.HostError != "" {
		b.Logf("the simulator could not run the script: %s", r.HostError)
	}
	b.ReportMetric(total/float64(b.N), "browser-ms/run")
	b.ReportMetric(first, "first-run-ms")
	b.ReportMetric(float64(r.Events), "events/run")
}

// BenchmarkBrowserFirstResult measures a first visit: a fresh browser
// profile (empty HTTP cache, no compiled-module cache) loads the page, which
// fetches and compiles the module and runs the default example. Metric: the
// Performance API's time from navigation start to the page's
// playground:first-result mark, averaged over the iterations.
func BenchmarkBrowserFirstResult(b *testing.B) {
	exe := chromium()
	if exe == "" {
		b.Skip("Chromium not found")
	}
	srv, err := web.NewServer(web.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if !srv.HasWasm() {
		b.Skip("built without the wasm module (make build)")
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	var total float64
	for b.Loop() {
		b.StopTimer()
		ctx, cancel := browser(b, exe)
		if err := chromedp.Run(ctx); err != nil { // starts the browser
			cancel()
			b.Fatal(err)
		}
		b.StartTimer()
		var ms float64
		err := chromedp.Run(ctx,
			chromedp.Navigate(hs.URL+"/"),
			waitRuns(1),
			chromedp.Evaluate(`performance.getEntriesByName('playground:first-result')[0].startTime`, &ms),
		)
		b.StopTimer()
		cancel()
		if err != nil {
			b.Fatal(err)
		}
		total += ms
		b.StartTimer()
	}
	b.ReportMetric(total/float64(b.N), "first-result-ms")
}
