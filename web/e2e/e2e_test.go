package e2e

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/gpumem/playground/sim"
	"github.com/gpumem/playground/sim/trace"
	"github.com/gpumem/playground/web"
	"github.com/gpumem/playground/web/examples"
)

// required reports whether a missing browser or module must fail the test.
func required() bool {
	for _, k := range []string{"CI", "PLAYGROUND_E2E"} {
		if v := os.Getenv(k); v != "" && v != "0" && v != "false" {
			return true
		}
	}
	return false
}

func skipOrFail(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if required() {
		t.Fatalf("%s (CI/PLAYGROUND_E2E is set, so this is a failure)", msg)
	}
	t.Skip(msg + " (set PLAYGROUND_E2E=1 to make this a failure)")
}

// chromium finds the browser: $CHROMIUM, then Debian's /usr/bin/chromium.
func chromium() string {
	for _, p := range []string{os.Getenv("CHROMIUM"), "/usr/bin/chromium"} {
		if p == "" {
			continue
		}
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	return ""
}

// browser starts headless Chromium with a fresh profile.
func browser(t testing.TB, exe string) (context.Context, context.CancelFunc) {
	// Not t.TempDir: Chromium may still be writing there as the test ends.
	profile, err := os.MkdirTemp("", "playground-e2e-")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.NoSandbox,
		chromedp.Headless,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1600, 1200),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	return ctx, func() {
		chromedp.Cancel(ctx) // closes the browser and waits for it
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
		for range 20 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// pageNumbers is what the page shows after a run.
type pageNumbers struct {
	Stdout    string     `json:"stdout"`
	HostError string     `json:"hostError"`
	Traceback string     `json:"traceback"`
	Final     []string   `json:"final"` // data-bytes of allocated, reserved, peak
	Rows      [][]string `json:"rows"`  // per-line table: line, delta, allocated, reserved
	Events    string     `json:"events"`
	Ms        string     `json:"ms"`
	OOMShown  bool       `json:"oomShown"`
}

const readPage = `(() => {
  const q = (s) => document.querySelector(s);
  const rows = [...document.querySelectorAll('#line-table tbody tr[data-line]')].map(
    (tr) => [tr.dataset.line, tr.dataset.delta, tr.dataset.allocated, tr.dataset.reserved]);
  return {
    stdout: q('#stdout').textContent,
    hostError: q('#host-error').hidden ? '' : q('#host-error').textContent,
    traceback: q('#traceback').textContent,
    final: q('#final-stats').hidden ? [] : ['#final-allocated', '#final-reserved', '#final-peak'].map((s) => q(s).dataset.bytes),
    rows,
    events: q('#scrubber').max,
    ms: q('#status').dataset.ms || '',
    oomShown: !q('#oom-banner').hidden,
  };
})()`

// waitRuns waits until the page has finished n runs.
func waitRuns(n int) chromedp.Action {
	return chromedp.WaitVisible(fmt.Sprintf(`body[data-runs="%d"]`, n), chromedp.ByQuery)
}

// expected computes, natively, what the page must show for a script.
func expected(t *testing.T, script string) (want pageNumbers, runErr error) {
	t.Helper()
	res, err := sim.Run(context.Background(), sim.Request{Script: script}, nil)
	if err != nil {
		return want, err
	}
	want.Stdout = res.Stdout
	if res.Error != nil {
		want.Traceback = res.Error.Traceback
	}
	want.Events = "0" // the scrubber's max: the last event's index
	if n := len(res.Events); n > 0 {
		s := res.Events[n-1].Stats
		want.Final = []string{itoa(s.Allocated), itoa(s.Reserved), itoa(s.PeakAllocated)}
		want.Events = strconv.Itoa(n - 1)
	}
	want.Rows = lineRows(res.Events)
	for _, e := range res.Events {
		if e.Kind == trace.OOM {
			want.OOMShown = true
		}
	}
	return want, nil
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// lineRows is the per-line table's rule (web/js/lines.js): one row per
// executed line that changed allocated memory or had allocator events.
func lineRows(events []trace.Event) [][]string {
	var rows [][]string
	var cur *trace.Event
	var after trace.Stats
	busy := false
	flush := func() {
		if cur == nil {
			return
		}
		d := after.Allocated - cur.Stats.Allocated
		if d != 0 || busy {
			rows = append(rows, []string{strconv.Itoa(cur.Line), itoa(d), itoa(after.Allocated), itoa(after.Reserved)})
		}
	}
	for i := range events {
		e := &events[i]
		switch e.Kind {
		case trace.Line, trace.End:
			flush()
			cur, after, busy = nil, e.Stats, false
			if e.Kind == trace.Line {
				cur = e
			}
			continue
		case trace.Alloc, trace.Free, trace.SegmentAlloc, trace.SegmentFree, trace.SegmentMap, trace.SegmentUnmap, trace.OOM:
			busy = true
		}
		if cur != nil {
			after = e.Stats
		}
	}
	flush()
	return rows
}

// check compares the page with the native run of the same script.
func check(t *testing.T, name string, got pageNumbers, want pageNumbers, runErr error) {
	t.Helper()
	if runErr != nil {
		// The simulator refused to run: the page must say why.
		if !strings.Contains(got.HostError, runErr.Error()) {
			t.Errorf("%s: sim.Run failed with %q, page shows host error %q", name, runErr, got.HostError)
		}
		return
	}
	if got.HostError != "" {
		t.Errorf("%s: page shows host error %q, sim.Run succeeded", name, got.HostError)
	}
	if got.Stdout != want.Stdout {
		t.Errorf("%s: stdout on the page\n%q\nwant (sim.Run)\n%q", name, got.Stdout, want.Stdout)
	}
	if strings.Join(got.Final, ",") != strings.Join(want.Final, ",") {
		t.Errorf("%s: final allocated,reserved,peak on the page %v, sim.Run %v", name, got.Final, want.Final)
	}
	if got.Events != want.Events {
		t.Errorf("%s: scrubber max %s, want %s", name, got.Events, want.Events)
	}
	if got.Traceback != want.Traceback {
		t.Errorf("%s: traceback on the page %q, want %q", name, got.Traceback, want.Traceback)
	}
	if got.OOMShown != want.OOMShown {
		t.Errorf("%s: OOM banner shown=%v, want %v", name, got.OOMShown, want.OOMShown)
	}
	n := min(len(want.Rows), 5000)
	if len(got.Rows) != n {
		t.Errorf("%s: %d rows in the per-line table, want %d", name, len(got.Rows), n)
	}
	for i := 0; i < n && i < len(got.Rows); i++ {
		if strings.Join(got.Rows[i], ",") != strings.Join(want.Rows[i], ",") {
			t.Errorf("%s: table row %d = %v, want %v", name, i, got.Rows[i], want.Rows[i])
			break
		}
	}
}

// menuExamples are run from the examples menu after the default one, in
// this order: cases the simulator reproduces exactly (sim/testdata/oracle/
// exact.txt), one ending in an uncaught OOM so that the traceback view is
// checked, and the GPT training step last (the share link reopens it).
var menuExamples = []string{"q013_loss_leak", "q020_oom_uncaught", "p021_gpt_block"}

// checkTracebackJump clicks the last traceback frame that names the script
// and checks that the editor then highlights that line of the example.
func checkTracebackJump(t *testing.T, ctx context.Context, ex examples.Example) {
	t.Helper()
	var jump struct {
		Line   int    `json:"line"`
		Active string `json:"active"`
	}
	const click = `(() => {
		const links = document.querySelectorAll('#traceback a.jump[data-line]');
		if (links.length === 0) return { line: 0, active: '' };
		const a = links[links.length - 1];
		a.click();
		const act = document.querySelector('.cm-activeLine');
		return { line: Number(a.dataset.line), active: act ? act.textContent : '' };
	})()`
	if err := chromedp.Run(ctx, chromedp.Evaluate(click, &jump)); err != nil {
		t.Fatalf("%s: clicking the traceback: %v", ex.ID, err)
	}
	lines := strings.Split(ex.Source, "\n")
	if jump.Line < 1 || jump.Line > len(lines) {
		t.Errorf("%s: no traceback link to a line of the script (got line %d)", ex.ID, jump.Line)
		return
	}
	if want := lines[jump.Line-1]; jump.Active != want {
		t.Errorf("%s: after clicking the traceback's line %d the editor's line is %q, want %q", ex.ID, jump.Line, jump.Active, want)
	}
}

func TestPlaygroundInBrowser(t *testing.T) {
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

	def, ok := examples.Lookup(examples.DefaultID)
	if !ok {
		t.Fatalf("default example %s missing", examples.DefaultID)
	}

	// 1. First visit: the default example runs by itself.
	var got pageNumbers
	var firstResult float64
	if err := chromedp.Run(ctx,
		chromedp.Navigate(hs.URL+"/"),
		waitRuns(1),
		chromedp.Evaluate(`performance.getEntriesByName('playground:first-result')[0].startTime`, &firstResult),
		chromedp.Evaluate(readPage, &got),
	); err != nil {
		t.Fatalf("loading the page: %v", err)
	}
	t.Logf("navigation → first result of %s: %.0f ms (Performance API); simulated in %s ms", def.ID, firstResult, got.Ms)
	want, runErr := expected(t, def.Source)
	check(t, def.ID, got, want, runErr)
	if firstResult > 5000 {
		t.Errorf("first result after %.0f ms, budget 1000 ms (5000 ms allowed under test load)", firstResult)
	}

	// 2. More examples from the menu: a leak, an uncaught OOM (traceback
	// view) and the GPT training step. Each must show what sim.Run gives.
	var want2 pageNumbers
	var runErr2 error
	for i, id := range menuExamples {
		ex, ok := examples.Lookup(id)
		if !ok {
			t.Fatalf("example %s missing", id)
		}
		if err := chromedp.Run(ctx,
			chromedp.Evaluate(`(() => { const s = document.getElementById('example-select'); s.value = `+jsString(id)+`; s.dispatchEvent(new Event('change')); })()`, nil),
			waitRuns(i+2),
			chromedp.Evaluate(readPage, &got),
		); err != nil {
			t.Fatalf("running example %s: %v", id, err)
		}
		t.Logf("%s: %s events, simulated in %s ms in the browser", id, got.Events, got.Ms)
		want2, runErr2 = expected(t, ex.Source)
		check(t, id, got, want2, runErr2)
		if want2.Traceback != "" {
			checkTracebackJump(t, ctx, ex)
		}
	}

	// 3. Step through events with the keyboard, then screenshot.
	var info1, info2, info3 string
	var png []byte
	if err := chromedp.Run(ctx,
		chromedp.Evaluate(`document.activeElement && document.activeElement.blur()`, nil),
		chromedp.Text(`#event-info`, &info1, chromedp.ByQuery),
		chromedp.KeyEvent(kb.ArrowUp),
		chromedp.Text(`#event-info`, &info2, chromedp.ByQuery),
		chromedp.KeyEvent(kb.ArrowDown),
		chromedp.Text(`#event-info`, &info3, chromedp.ByQuery),
		chromedp.Evaluate(`window.scrollTo(0, 0)`, nil),
		chromedp.FullScreenshot(&png, 100),
	); err != nil {
		t.Fatalf("stepping and screenshot: %v", err)
	}
	if runErr2 == nil && info1 == info2 {
		t.Errorf("↑ did not move the event cursor (%q)", info1)
	}
	if runErr2 == nil && info3 != info1 {
		t.Errorf("↓ after ↑ shows %q, want %q again", info3, info1)
	}
	saveArtifact(t, "e2e-playground.png", png)

	// 4. The share link reproduces the run in a fresh page.
	var link string
	if err := chromedp.Run(ctx,
		chromedp.Click(`#share-button`, chromedp.ByQuery),
		chromedp.Poll(`location.hash.startsWith('#s=') ? location.href : ''`, &link, chromedp.WithPollingTimeout(10*time.Second)),
	); err != nil {
		t.Fatalf("making a share link: %v", err)
	}
	var again pageNumbers
	if err := chromedp.Run(ctx,
		chromedp.Navigate("about:blank"),
		chromedp.Navigate(hs.URL+"/"),
		waitRuns(1),
		chromedp.Evaluate(`localStorage.clear()`, nil),
		chromedp.Navigate("about:blank"),
		chromedp.Navigate(link),
		waitRuns(1),
		chromedp.Evaluate(readPage, &again),
	); err != nil {
		t.Fatalf("opening the share link: %v", err)
	}
	check(t, "share link of "+menuExamples[len(menuExamples)-1], again, want2, runErr2)
	if !strings.Contains(link, "#s=") || len(link) > 8000 {
		t.Errorf("share link %d characters: %.80s…", len(link), link)
	}
}

// saveArtifact writes a file under the repository's artifacts/ folder.
func saveArtifact(t *testing.T, name string, data []byte) {
	t.Helper()
	dir := filepath.Join("..", "..", "artifacts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Logf("artifact %s not saved: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Logf("artifact %s not saved: %v", name, err)
		return
	}
	abs, _ := filepath.Abs(filepath.Join(dir, name))
	t.Logf("screenshot: %s", abs)
}

// awaitPromise makes chromedp.Evaluate wait for a returned Promise.
func awaitPromise(p *runtime.EvaluateParams) *runtime.EvaluateParams {
	return p.WithAwaitPromise(true)
}
