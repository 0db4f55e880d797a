package e2e

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/gorilla/websocket"

	"github.com/gpumem/playground/gpu/compare"
	"github.com/gpumem/playground/sim"
	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/trace"
	"github.com/gpumem/playground/web"
	"github.com/gpumem/playground/web/examples"
	"github.com/gpumem/playground/web/gpujob"
)

// gpuPage serves the page with "Run on GPU" on the given fake workers.
func gpuPage(t testing.TB, workers []gpujob.Worker) (*httptest.Server, *gpujob.Queue, bool) {
	t.Helper()
	quiet := log.New(io.Discard, "", 0)
	g, q, err := web.NewGPUService(workers, []string{"recorded NVIDIA H200 (replay)"}, gpujob.Limits{}, gpujob.Options{Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := web.NewServer(web.Options{GPU: g})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { hs.Close(); q.Close() })
	return hs, q, srv.HasWasm()
}

// readPair reads a run recorded on a GPU, with its simulation.
func readPair(t testing.TB, name string) *compare.Pair {
	t.Helper()
	f, err := os.Open("../../gpu/compare/testdata/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := compare.ReadPair(f)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// gpuRow is one row of the panel's table as the page shows it.
type gpuRow struct {
	Line    int               `json:"line"`
	Step    int               `json:"step"`
	Values  map[string]string `json:"values"` // data-k → data-v
	Kinds   []string          `json:"kinds"`
	Texts   []string          `json:"texts"`
	Diff    bool              `json:"diff"`
	Visible bool              `json:"visible"` // the why cell has a height: CSS did not hide it
}

const readGPUTable = `[...document.querySelectorAll('#gpu-table tbody tr')].map((tr) => ({
  line: Number(tr.dataset.line), step: Number(tr.dataset.step),
  values: Object.fromEntries([...tr.querySelectorAll('td[data-k]')].map((td) => [td.dataset.k, td.dataset.v])),
  kinds: [...tr.querySelectorAll('.reason')].map((s) => s.dataset.kind),
  texts: [...tr.querySelectorAll('.reason')].map((s) => s.textContent),
  diff: tr.classList.contains('gpu-diff'),
  visible: tr.querySelector('td.why').getBoundingClientRect().height > 0,
}))`

// TestGPUPanelInBrowser: two clients share one (replayed) GPU: the page's
// job waits with its queue position shown and is cancelled from the
// keyboard; then it runs an oracle case whose GPU run was recorded on an
// H200, and the panel's table must be exactly gpu/compare's table of the
// simulation and that recording, reasons included.
func TestGPUPanelInBrowser(t *testing.T) {
	exe := chromium()
	if exe == "" {
		skipOrFail(t, "e2e: Chromium not found (apt-get install chromium, or set CHROMIUM)")
	}
	const id = "q010_oom_fraction"
	pair := readPair(t, id)
	ex, ok := examples.Lookup(id)
	if !ok || ex.Source != pair.Script {
		t.Fatalf("example %s missing or not the recorded script", id)
	}
	hold := make(chan struct{}) // the other client's job runs until closed
	holding := make(chan struct{}, 1)
	recorded := web.RecordedGPURunner{Pair: pair}
	runner := gpujob.RunnerFunc(func(ctx context.Context, job gpujob.Job, emit func(trace.Event)) (gpujob.Result, error) {
		if job.Script == "hold" {
			holding <- struct{}{}
			select {
			case <-hold:
			case <-ctx.Done():
			}
			return gpujob.Result{}, nil
		}
		return recorded.Run(ctx, job, emit)
	})
	hs, q, hasWasm := gpuPage(t, []gpujob.Worker{{Name: "GPU 0 (replay)", Runner: runner}})
	ctx, cancel := browser(t, exe)
	defer cancel()

	// Another client holds the GPU.
	other, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(hs.URL, "http")+"/gpu/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := other.WriteJSON(gpujob.ClientMessage{Type: gpujob.MsgRun, Script: "hold"}); err != nil {
		t.Fatal(err)
	}
	<-holding

	// 1. The page's job waits behind it, position 1; Esc cancels it.
	var position, queueText, focused, state string
	steps := []chromedp.Action{chromedp.Navigate(hs.URL + "/")}
	if hasWasm {
		steps = append(steps, waitRuns(1))
	}
	steps = append(steps,
		chromedp.WaitVisible(`#gpu-button`, chromedp.ByQuery),
		chromedp.Evaluate(`(() => { const s = document.getElementById('example-select'); s.value = `+jsString(id)+`; s.dispatchEvent(new Event('change')); })()`, nil),
	)
	if hasWasm {
		steps = append(steps, waitRuns(2))
	}
	steps = append(steps,
		chromedp.Click(`#gpu-button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#gpu-queue`, chromedp.ByQuery),
		chromedp.WaitVisible(`#gpu-cancel`, chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById('gpu-queue').dataset.position`, &position),
		chromedp.Text(`#gpu-queue`, &queueText, chromedp.ByQuery),
		chromedp.Evaluate(`document.activeElement ? document.activeElement.id : ''`, &focused),
		chromedp.KeyEvent(kb.Escape),
		chromedp.WaitVisible(`#gpu-panel[data-state="cancelled"]`, chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById('gpu-cancel').hidden && document.getElementById('gpu-queue').hidden ? 'hidden' : 'shown'`, &state),
	)
	if err := chromedp.Run(ctx, steps...); err != nil {
		t.Fatalf("queueing and cancelling on the page: %v", err)
	}
	if position != "1" || !strings.Contains(queueText, "Position 1") {
		t.Errorf("queue position %q, text %q; want 1", position, queueText)
	}
	if focused != "gpu-cancel" {
		t.Errorf("focus on %q after Run on GPU, want the cancel button (keyboard users cancel with Enter)", focused)
	}
	if state != "hidden" {
		t.Errorf("cancel button or queue position still shown after the cancellation")
	}
	gpuWaitFor(t, "the queue to count the cancellation", func() bool { s := q.Stats(); return s.Cancelled == 1 && s.Waiting == 0 })

	// 2. The other client finishes; the page's job runs on the "GPU".
	close(hold)
	var rows []gpuRow
	var profileName, agree, stdout string
	if err := chromedp.Run(ctx,
		chromedp.Click(`#gpu-button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#gpu-panel[data-state="done"]`, chromedp.ByQuery),
		chromedp.Evaluate(readGPUTable, &rows),
		chromedp.Evaluate(`document.getElementById('profile-select').value`, &profileName),
		chromedp.Evaluate(`document.getElementById('gpu-summary').dataset.agree`, &agree),
		chromedp.Text(`#gpu-stdout`, &stdout, chromedp.ByQuery),
	); err != nil {
		t.Fatalf("running %s on the replayed GPU: %v", id, err)
	}
	want := expectedTable(t, pair, profileName)
	checkGPUTable(t, rows, want)
	if agree != strconv.FormatBool(want.Agree) {
		t.Errorf("summary says agree=%s, compare says %v", agree, want.Agree)
	}
	if strings.TrimSpace(stdout) != strings.TrimSpace(pair.GPU.Stdout) {
		t.Errorf("GPU output on the page %q, recorded %q", stdout, pair.GPU.Stdout)
	}

	// 3. Screenshots of the panel in both themes.
	for _, theme := range []string{"light", "dark"} {
		var png []byte
		if err := chromedp.Run(ctx,
			chromedp.Evaluate(`document.documentElement.dataset.theme = `+jsString(theme), nil),
			// The sticky toolbar would cover the panel's top in the picture.
			chromedp.Evaluate(`document.querySelector('.toolbar').style.position = 'static'`, nil),
			chromedp.ScrollIntoView(`#gpu-panel`, chromedp.ByQuery),
			chromedp.Screenshot(`#gpu-panel`, &png, chromedp.ByQuery),
		); err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		saveArtifact(t, "e2e-gpu-panel-"+theme+".png", png)
	}
}

// expectedTable is gpu/compare's table of the recorded GPU run against the
// simulation of the same script under the page's profile.
func expectedTable(t *testing.T, rec *compare.Pair, profileName string) *compare.Table {
	t.Helper()
	prof, err := profile.Lookup(profileName)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background(), sim.Request{Script: rec.Script, Filename: "<script>", Profile: profileName}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := *rec
	p.SimContext = prof.DriverUsedAtInit
	p.Sim = compare.Run{Stdout: res.Stdout, Events: res.Events}
	if res.Error != nil {
		p.Sim.Error = res.Error.Error()
	}
	return compare.Compare(&p, compare.Options{})
}

// checkGPUTable compares the page's rows with compare's.
func checkGPUTable(t *testing.T, rows []gpuRow, want *compare.Table) {
	t.Helper()
	if len(rows) != len(want.Rows) || len(rows) == 0 {
		t.Fatalf("%d rows on the page, compare has %d", len(rows), len(want.Rows))
	}
	nonContext := 0
	for i, w := range want.Rows {
		got := rows[i]
		exp := map[string]string{}
		side := func(name string, s *compare.Step) {
			exp[name+"-allocated"], exp[name+"-reserved"], exp[name+"-driver_used"] = "", "", ""
			if s != nil {
				exp[name+"-allocated"], exp[name+"-reserved"], exp[name+"-driver_used"] = itoa(s.Allocated), itoa(s.Reserved), itoa(s.DriverUsed)
			}
		}
		side("sim", w.Sim)
		side("gpu", w.GPU)
		if w.Sim != nil && w.GPU != nil {
			exp["d-allocated"], exp["d-reserved"], exp["d-driver_used"] = itoa(w.DAllocated), itoa(w.DReserved), itoa(w.DDriverUsed)
		} else {
			exp["d-allocated"], exp["d-reserved"], exp["d-driver_used"] = "", "", ""
		}
		exp["gpu-time"], exp["malloc-free"] = "", ""
		if w.GPU != nil {
			exp["gpu-time"] = itoa(w.GPU.ElapsedNanos)
			exp["malloc-free"] = fmt.Sprintf("%d/%d", w.GPU.DeviceAllocs, w.GPU.DeviceFrees)
		}
		if got.Line != w.Line || got.Step != w.Step {
			t.Errorf("row %d: line %d step %d, want line %d step %d", i, got.Line, got.Step, w.Line, w.Step)
		}
		for k, v := range exp {
			if got.Values[k] != v {
				t.Errorf("row %d (line %d): %s = %q on the page, compare %q", i, w.Line, k, got.Values[k], v)
			}
		}
		var kinds, texts []string
		diff := false
		for _, r := range w.Reasons {
			kinds = append(kinds, string(r.Kind))
			texts = append(texts, string(r.Kind)+" "+r.Text)
			diff = diff || r.Kind != compare.Context
		}
		if strings.Join(got.Kinds, "|") != strings.Join(kinds, "|") || strings.Join(got.Texts, "|") != strings.Join(texts, "|") {
			t.Errorf("row %d (line %d): reasons %q, compare %q", i, w.Line, got.Texts, texts)
		}
		if got.Diff != diff {
			t.Errorf("row %d (line %d): highlighted=%v, want %v (reasons %v)", i, w.Line, got.Diff, diff, kinds)
		}
		if diff {
			nonContext++
		}
		if len(kinds) > 0 && !got.Visible {
			t.Errorf("row %d: the reason cell is not visible", i)
		}
	}
	if nonContext == 0 {
		t.Errorf("no row of %s has a reason other than the context: the test checks no highlighting", want.Name)
	}
}

// gpuWaitFor polls cond for up to 5 s.
func gpuWaitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
