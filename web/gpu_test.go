package web

import (
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/gpumem/playground/gpu/compare"
	"github.com/gpumem/playground/gpu/gputest"
	"github.com/gpumem/playground/web/gpujob"
)

// newGPUServer serves the page with "Run on GPU" on a fake device.
func newGPUServer(t *testing.T, dev *gputest.Device) *httptest.Server {
	t.Helper()
	quiet := log.New(io.Discard, "", 0)
	g, q, err := NewGPU(dev, gpujob.Limits{}, gpujob.Options{Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewServer(Options{Assets: testAssets(t, false), GPU: g})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(func() { ts.Close(); q.Close() })
	return ts
}

// runOnGPU sends script over the websocket and returns the messages up to
// done or error.
func runOnGPU(t *testing.T, ts *httptest.Server, script string) []gpujob.ServerMessage {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(ts.URL, "http")+"/gpu/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if err := ws.WriteJSON(gpujob.ClientMessage{Type: gpujob.MsgRun, Script: script}); err != nil {
		t.Fatal(err)
	}
	var msgs []gpujob.ServerMessage
	ws.SetReadDeadline(time.Now().Add(30 * time.Second))
	for {
		var m gpujob.ServerMessage
		if err := ws.ReadJSON(&m); err != nil {
			t.Fatalf("after %d messages: %v", len(msgs), err)
		}
		msgs = append(msgs, m)
		if m.Type == gpujob.MsgDone || m.Type == gpujob.MsgError {
			return msgs
		}
	}
}

func TestGPUInfo(t *testing.T) {
	if res := get(newTestServer(t, false), "/gpu/info", ""); res.StatusCode != http.StatusNotFound {
		t.Errorf("without a GPU: /gpu/info status %d, want 404", res.StatusCode)
	}
	ts := newGPUServer(t, gputest.New(gputest.Options{}))
	res, err := http.Get(ts.URL + "/gpu/info")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var info GPUInfo
	if err := json.NewDecoder(res.Body).Decode(&info); err != nil || res.StatusCode != 200 {
		t.Fatalf("status %d, %v", res.StatusCode, err)
	}
	if len(info.Devices) != 1 || !strings.Contains(info.Devices[0], "(fake)") || info.Limits.MaxScript == 0 || info.Stats == nil {
		t.Errorf("info = %+v", info)
	}
}

func TestRunOnGPU(t *testing.T) {
	src, err := os.ReadFile("../sim/testdata/oracle/cases/s000_release.py")
	if err != nil {
		t.Fatal(err)
	}
	ts := newGPUServer(t, gputest.New(gputest.Options{Context: 554500096}))
	msgs := runOnGPU(t, ts, string(src))
	events := 0
	for _, m := range msgs {
		if m.Type == gpujob.MsgRows {
			evs, err := m.DecodeEvents()
			if err != nil {
				t.Fatal(err)
			}
			for i, ev := range evs {
				if ev.Seq != events+i || ev.GPU == nil {
					t.Fatalf("event %+v arrived as the %dth", ev, events+i)
				}
			}
			events += len(evs)
		}
	}
	done := msgs[len(msgs)-1]
	if done.Type != gpujob.MsgDone {
		t.Fatalf("last message %+v", done)
	}
	res := done.Result
	if events == 0 || res.Events != events || !strings.Contains(res.Stdout, "end: ") || res.UsedBefore != res.UsedAfter {
		t.Errorf("streamed %d events, result %+v", events, res)
	}
	var tab compare.Table
	if err := json.Unmarshal(res.Compare, &tab); err != nil {
		t.Fatal(err)
	}
	if !tab.Agree || len(tab.Rows) < 20 || tab.ContextDelta != 2<<20 {
		t.Errorf("table: agree %v, %d rows, context %+d", tab.Agree, len(tab.Rows), tab.ContextDelta)
	}
}

// A device whose driver figure does not come back fails the job loudly.
func TestRunOnGPULeak(t *testing.T) {
	ts := newGPUServer(t, gputest.New(gputest.Options{LeakBytes: 2 << 20}))
	msgs := runOnGPU(t, ts, "import torch\nx = torch.ones(10, device='cuda')\n")
	last := msgs[len(msgs)-1]
	if last.Type != gpujob.MsgError || last.Code != gpujob.CodeLeak {
		t.Errorf("last message %+v, want a leak error", last)
	}
}

// The per-job memory limit of the device is a real OOM for the script, and
// the table explains the difference with the simulation.
func TestRunOnGPUMemoryLimit(t *testing.T) {
	ts := newGPUServer(t, gputest.New(gputest.Options{MemoryLimit: 64 << 20}))
	msgs := runOnGPU(t, ts, "import torch\nx = torch.ones(1024, 1024, 32, device='cuda')\nprint('done')\n")
	done := msgs[len(msgs)-1]
	if done.Type != gpujob.MsgDone || !strings.Contains(done.Result.Error, "OutOfMemoryError") {
		t.Fatalf("last message %+v, want done with an OOM", done)
	}
	var tab compare.Table
	if err := json.Unmarshal(done.Result.Compare, &tab); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range tab.Rows {
		for _, why := range r.Reasons {
			found = found || why.Kind == compare.OOM
		}
	}
	if !found {
		t.Errorf("no oom reason in %+v", tab.Rows)
	}
}
