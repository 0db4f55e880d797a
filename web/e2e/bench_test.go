package e2e

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

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
// profile (empty HTTP cache, no compiled-module cache), started and left to
// settle (browserSettle), loads the page, which fetches and compiles the
// module and runs the default example. Metric: the
// Performance API's time from navigation start to the page's
// playground:first-result mark, averaged over the iterations. The other
// metrics say where that time goes (each is a mean time since navigation
// start, see firstVisitSteps).
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
	sums := make([]float64, len(firstVisitSteps))
	for b.Loop() {
		b.StopTimer()
		ctx, cancel := browser(b, exe)
		if err := chromedp.Run(ctx); err != nil { // starts the browser
			cancel()
			b.Fatal(err)
		}
		time.Sleep(browserSettle)
		b.StartTimer()
		var ms []float64
		err := chromedp.Run(ctx,
			chromedp.Navigate(hs.URL+"/"),
			waitRuns(1),
			chromedp.Evaluate(firstVisitTimes, &ms),
		)
		b.StopTimer()
		cancel()
		if err != nil {
			b.Fatal(err)
		}
		if len(ms) != len(sums) {
			b.Fatalf("page timings: got %d values, want %d", len(ms), len(sums))
		}
		for i, v := range ms {
			sums[i] += v
		}
		b.StartTimer()
	}
	for i, st := range firstVisitSteps {
		b.ReportMetric(sums[i]/float64(b.N), st.metric)
	}
}

// browserSettle is how long BenchmarkBrowserFirstResult lets a freshly
// started browser finish its own start-up before navigating: Chromium's new
// headless mode loads its omnibox pop-up WebUI (~300 resources) in another
// renderer for about a second after start, which on a 2-core machine took
// CPU from the page (trace of session 12). A visitor's browser is already
// running; the profile stays fresh (empty HTTP and compiled-module caches).
const browserSettle = 2 * time.Second

// firstVisitSteps are the moments of a first visit that
// BenchmarkBrowserFirstResult reports, as ms since navigation start: a
// resource's responseEnd (Resource Timing) or a mark set by web/js/main.js.
var firstVisitSteps = []struct{ metric, resource, mark string }{
	{metric: "appjs-loaded-ms", resource: "app.js"},
	{metric: "wasm-loaded-ms", resource: ".wasm"},
	{metric: "wasm-compiled-ms", mark: "playground:wasm-compiled"},
	{metric: "go-started-ms", mark: "playground:go-started"},
	{metric: "first-run-start-ms", mark: "playground:first-run-start"},
	{metric: "first-run-end-ms", mark: "playground:first-run-end"},
	{metric: "first-result-ms", mark: "playground:first-result"},
}

// firstVisitTimes is the page-side expression that reads firstVisitSteps
// (-1 where a step is missing, which the benchmark then reports as such).
var firstVisitTimes = func() string {
	var sb strings.Builder
	sb.WriteString(`(() => { const res = (s) => { const e = performance.getEntriesByType('resource').find((r) => r.name.includes(s)); return e ? e.responseEnd : -1; };
		const mark = (m) => { const e = performance.getEntriesByName(m)[0]; return e ? e.startTime : -1; }; return [`)
	for _, st := range firstVisitSteps {
		if st.resource != "" {
			fmt.Fprintf(&sb, "res(%q),", st.resource)
		} else {
			fmt.Fprintf(&sb, "mark(%q),", st.mark)
		}
	}
	sb.WriteString(`]; })()`)
	return sb.String()
}()
