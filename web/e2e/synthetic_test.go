package e2e

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gpumem/playground/sim"
	"github.com/gpumem/playground/sim/trace"
	"github.com/gpumem/playground/wasm/bridge"
	"github.com/gpumem/playground/web"
)

// streamBuilder makes a consistent event stream (stats follow the events),
// so that the views can be tested independently of the simulator.
type streamBuilder struct {
	events []trace.Event
	st     trace.Stats
	line   int
}

const mib = 1 << 20

func (b *streamBuilder) add(e trace.Event) {
	e.Seq = len(b.events)
	if e.Line == 0 {
		e.Line = b.line
	}
	switch e.Kind {
	case trace.SegmentAlloc:
		b.st.Reserved += e.Size
		b.st.Segments++
	case trace.SegmentFree:
		b.st.Reserved -= e.Size
		b.st.Segments--
	case trace.Alloc:
		b.st.Allocated += e.Size
	case trace.Free:
		b.st.Allocated -= e.Size
	case trace.OOM:
		b.st.OOMs++
	case trace.Line:
		b.line = e.Line
	}
	b.st.PeakAllocated = max(b.st.PeakAllocated, b.st.Allocated)
	b.st.PeakReserved = max(b.st.PeakReserved, b.st.Reserved)
	e.Stats = b.st
	b.events = append(b.events, e)
}

const synthScript = `import torch
w = torch.empty(2 * 1024 * 1024, device="cuda")
b = torch.empty(128, device="cuda")
print("made w and b")
del w
huge = torch.empty(1 << 40, device="cuda")
`

const synthTraceback = "Traceback (most recent call last):\n  File \"<script>\", line 6, in <module>\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 TiB.\n"

// synthResponse is a run of synthScript as the wasm bridge would return it.
func synthResponse() bridge.Response {
	const seg, small = 0x7f0000000000, 0x7f1000000000
	var b streamBuilder
	b.add(trace.Event{Kind: trace.Line, Line: 1})
	b.add(trace.Event{Kind: trace.Line, Line: 2})
	b.add(trace.Event{Kind: trace.SegmentAlloc, Addr: seg, Size: 20 * mib, Pool: trace.Large})
	b.add(trace.Event{Kind: trace.Alloc, Addr: seg, Size: 8 * mib, Requested: 8 * mib, Segment: seg, Pool: trace.Large, Label: &trace.Label{Kind: trace.LabelUser}})
	b.add(trace.Event{Kind: trace.Relabel, Addr: seg, Segment: seg, Label: &trace.Label{Kind: trace.LabelUser, Name: "w", Detail: "tensor bound to w"}})
	b.add(trace.Event{Kind: trace.Line, Line: 3})
	b.add(trace.Event{Kind: trace.SegmentAlloc, Addr: small, Size: 2 * mib, Pool: trace.Small})
	b.add(trace.Event{Kind: trace.Alloc, Addr: small, Size: 512, Requested: 512, Segment: small, Pool: trace.Small, Label: &trace.Label{Kind: trace.LabelUser, Name: "b"}})
	b.add(trace.Event{Kind: trace.Line, Line: 4})
	b.add(trace.Event{Kind: trace.Output, Text: "made w and b\n"})
	b.add(trace.Event{Kind: trace.Line, Line: 5})
	b.add(trace.Event{Kind: trace.Free, Addr: seg, Size: 8 * mib, Requested: 8 * mib, Segment: seg, Pool: trace.Large, Label: &trace.Label{Kind: trace.LabelUser, Name: "w"}})
	b.add(trace.Event{Kind: trace.Line, Line: 6})
	b.add(trace.Event{Kind: trace.SegmentFree, Addr: seg, Size: 20 * mib, Pool: trace.Large})
	b.add(trace.Event{Kind: trace.OOM, Size: 4 << 40, Text: "CUDA out of memory. Tried to allocate 4.00 TiB."})
	b.add(trace.Event{Kind: trace.Error, Text: synthTraceback})
	b.add(trace.Event{Kind: trace.End, Line: 0})
	return bridge.Response{
		Version: sim.Version,
		Stdout:  "made w and b\n",
		Error:   &bridge.ScriptError{Type: "torch.OutOfMemoryError", Message: "CUDA out of memory. Tried to allocate 4.00 TiB.", Traceback: synthTraceback, Line: 6},
		Events:  b.events,
	}
}

// TestViewsWithSyntheticStream drives the page's views with a known stream
// (the simulator replaced by a stub in the page) and checks what they show:
// the output, the OOM banner and the state at the failure, the clickable
// traceback, the per-line table, the segment map's blocks and hover text.
func TestViewsWithSyntheticStream(t *testing.T) {
	exe := chromium()
	if exe == "" {
		skipOrFail(t, "e2e: Chromium not found (apt-get install chromium, or set CHROMIUM)")
	}
	srv, err := web.NewServer(web.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !srv.HasWasm() {
		skipOrFail(t, "e2e: the server was built without static/wasm/playground.wasm (run make build first)")
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	ctx, cancel := browser(t, exe)
	defer cancel()

	resp, err := json.Marshal(synthResponse())
	if err != nil {
		t.Fatal(err)
	}
	script, _ := json.Marshal(synthScript)
	stub := `globalThis.playgroundRun = async () => ` + jsString(string(resp)) + `;`
	var (
		got      pageNumbers
		blocks   []string
		tip      string
		selected string
		info     string
		png      []byte
	)
	err = chromedp.Run(ctx,
		chromedp.Navigate(hs.URL+"/"),
		waitRuns(1),
		chromedp.Evaluate(stub, nil),
		chromedp.Evaluate(`(() => { const v = document.querySelector('.cm-content'); v.focus(); document.execCommand('selectAll'); document.execCommand('insertText', false, `+string(script)+`); })()`, nil),
		chromedp.Click(`#run-button`, chromedp.ByQuery),
		waitRuns(2),
		chromedp.Evaluate(readPage, &got),
		chromedp.Text(`#event-info`, &info, chromedp.ByQuery),
		chromedp.Evaluate(blocksJS, &blocks),
	)
	if err != nil {
		t.Fatalf("running the stub: %v", err)
	}
	want := synthResponse()
	if got.Stdout != want.Stdout {
		t.Errorf("stdout %q, want %q", got.Stdout, want.Stdout)
	}
	if !got.OOMShown {
		t.Errorf("OOM banner not shown")
	}
	if got.Traceback != synthTraceback {
		t.Errorf("traceback %q", got.Traceback)
	}
	// the cursor starts at the OOM event: one small segment left, block b live
	if !strings.Contains(info, "event 15 of 17") || !strings.Contains(info, "oom") {
		t.Errorf("event info %q, want the OOM event selected", info)
	}
	if strings.Join(blocks, "|") != "blk k-user|blk free" {
		t.Errorf("blocks at the OOM: %v", blocks)
	}
	if wantRows := lineRows(want.Events); len(got.Rows) != len(wantRows) {
		t.Errorf("table rows %v, want %v", got.Rows, wantRows)
	}

	// Step back to the event after w was relabelled: the large segment is
	// back, and hovering its first block names it.
	err = chromedp.Run(ctx,
		chromedp.Evaluate(`(() => { const s = document.getElementById('scrubber'); s.value = '4'; s.dispatchEvent(new Event('input')); })()`, nil),
		chromedp.Evaluate(blocksJS, &blocks),
		chromedp.Evaluate(`(() => {
			const r = document.querySelector('#segmap rect.blk').getBoundingClientRect();
			document.getElementById('segmap').dispatchEvent(new PointerEvent('pointermove', { clientX: r.left + 3, clientY: r.top + 5, bubbles: true }));
			return document.getElementById('block-tip').textContent;
		})()`, &tip),
		chromedp.Evaluate(`window.scrollTo(0, 0)`, nil),
		chromedp.FullScreenshot(&png, 100),
		chromedp.Click(`#traceback a.jump`, chromedp.ByQuery),
		chromedp.Poll(`(() => { const s = getSelection().toString(); return s.includes('huge') ? s : ''; })()`, &selected, chromedp.WithPollingTimeout(5*time.Second)),
	)
	if err != nil {
		t.Fatalf("scrubbing, hovering and jumping: %v", err)
	}
	saveArtifact(t, "e2e-views.png", png)
	if strings.Join(blocks, "|") != "blk k-user hot|blk free" {
		t.Errorf("blocks at event 4: %v", blocks)
	}
	for _, w := range []string{"user w", "tensor bound to w", "8.00 MiB", "line 2: w = torch.empty"} {
		if !strings.Contains(tip, w) {
			t.Errorf("hover text %q lacks %q", tip, w)
		}
	}
	if !strings.Contains(selected, "huge = torch.empty") {
		t.Errorf("clicking the traceback selected %q, want line 6", selected)
	}

	// The theme toggle switches light to dark (the headless default is light).
	var theme, bgBefore, bgAfter string
	err = chromedp.Run(ctx,
		chromedp.Evaluate(`getComputedStyle(document.body).backgroundColor`, &bgBefore),
		chromedp.Click(`#theme-button`, chromedp.ByQuery),
		chromedp.Evaluate(`document.documentElement.dataset.theme || ''`, &theme),
		chromedp.Evaluate(`getComputedStyle(document.body).backgroundColor`, &bgAfter),
		chromedp.Evaluate(`window.scrollTo(0, 0)`, nil),
		chromedp.FullScreenshot(&png, 100),
	)
	if err != nil {
		t.Fatalf("toggling the theme: %v", err)
	}
	saveArtifact(t, "e2e-views-dark.png", png)
	if theme != "dark" || bgBefore == bgAfter {
		t.Errorf("theme toggle: data-theme %q, background %s → %s", theme, bgBefore, bgAfter)
	}
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// blocksJS lists the distinct blocks drawn in the segment map, by class.
const blocksJS = `(() => {
  const seen = new Set(); const out = [];
  for (const r of document.querySelectorAll('#segmap rect.blk')) {
    if (seen.has(r.dataset.addr)) continue;
    seen.add(r.dataset.addr); out.push(r.getAttribute('class'));
  }
  return out;
})()`
