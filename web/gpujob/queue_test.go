package gpujob

import (
	"context"
	"errors"
	"io"
	"log"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpumem/playground/sim/trace"
)

func newTestQueue(t *testing.T, workers []Worker, opts Options) *Queue {
	t.Helper()
	if opts.Log == nil {
		opts.Log = log0()
	}
	q, err := NewQueue(workers, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(q.Close)
	return q
}

// submitAsync runs Submit in a goroutine and reports positions and outcome.
type pending struct {
	positions chan int
	done      chan error
	cancel    context.CancelFunc
}

func submitAsync(q *Queue, script string) *pending {
	ctx, cancel := context.WithCancel(context.Background())
	p := &pending{positions: make(chan int, 16), done: make(chan error, 1), cancel: cancel}
	go func() {
		_, err := q.Submit(ctx, Job{Script: script}, Notifier{Queued: func(n int) { p.positions <- n }})
		p.done <- err
	}()
	return p
}

func (p *pending) position(t *testing.T) int {
	t.Helper()
	select {
	case n := <-p.positions:
		return n
	case <-time.After(5 * time.Second):
		t.Fatal("no position update")
	}
	return 0
}

func TestQueueTwoGPUs(t *testing.T) {
	g := newGate(t)
	q := newTestQueue(t, []Worker{{Name: "GPU 0", Runner: g}, {Name: "GPU 1", Runner: g}}, Options{})
	a, b := submitAsync(q, "a"), submitAsync(q, "b")
	<-g.started
	<-g.started // both run at once, one per GPU
	c := submitAsync(q, "c")
	if n := c.position(t); n != 1 {
		t.Errorf("c at %d, want 1", n)
	}
	if s := q.Stats(); s.Running != 2 || s.Waiting != 1 {
		t.Errorf("stats %+v", s)
	}
	g.open <- struct{}{}
	if s := <-g.started; s != "c" {
		t.Errorf("started %q", s)
	}
	g.finishAll()
	for _, p := range []*pending{a, b, c} {
		if err := <-p.done; err != nil {
			t.Error(err)
		}
	}
	if s := q.Stats(); s.Completed != 3 || s.Running != 0 {
		t.Errorf("stats %+v", s)
	}
}

func TestQueueCancelWhileWaiting(t *testing.T) {
	g := newGate(t)
	q := newTestQueue(t, []Worker{{Name: "GPU 0", Runner: g}}, Options{})
	a := submitAsync(q, "a")
	<-g.started
	var b, c, d *pending
	for i, p := range []**pending{&b, &c, &d} {
		*p = submitAsync(q, string(rune('b'+i)))
		if n := (*p).position(t); n != i+1 {
			t.Fatalf("job %d waits at position %d", i, n)
		}
	}
	c.cancel()
	if err := <-c.done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled waiting job: %v", err)
	}
	if n := d.position(t); n != 2 {
		t.Errorf("d at %d after c left, want 2", n)
	}
	select {
	case n := <-b.positions:
		t.Errorf("b's position changed to %d though nobody ahead of it left", n)
	default:
	}
	g.finishAll()
	for _, p := range []*pending{a, b, d} {
		if err := <-p.done; err != nil {
			t.Error(err)
		}
	}
	if got := []string{<-g.started, <-g.started}; got[0] != "b" || got[1] != "d" {
		t.Errorf("ran %v after a, want [b d]", got)
	}
}

func TestQueueBusyAndClosed(t *testing.T) {
	g := newGate(t)
	q, err := NewQueue([]Worker{{Name: "GPU 0", Runner: g}}, Options{MaxWaiting: 1, Log: log0()})
	if err != nil {
		t.Fatal(err)
	}
	a := submitAsync(q, "a")
	<-g.started
	b := submitAsync(q, "b")
	b.position(t)
	if _, err := q.Submit(context.Background(), Job{}, Notifier{}); !errors.Is(err, ErrBusy) {
		t.Errorf("third job: %v, want ErrBusy", err)
	}
	closed := make(chan struct{})
	go func() { q.Close(); close(closed) }()
	if err := <-b.done; !errors.Is(err, ErrClosed) {
		t.Errorf("waiting job at Close: %v, want ErrClosed", err)
	}
	select {
	case <-closed:
		t.Error("Close returned while a job was running")
	case <-time.After(20 * time.Millisecond):
	}
	g.finishAll()
	<-closed
	if err := <-a.done; err != nil {
		t.Errorf("running job at Close: %v", err)
	}
	if _, err := q.Submit(context.Background(), Job{}, Notifier{}); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v, want ErrClosed", err)
	}
}

func TestNewQueueErrors(t *testing.T) {
	if _, err := NewQueue(nil, Options{}); err == nil {
		t.Error("a queue without workers was accepted")
	}
	if _, err := NewQueue([]Worker{{Name: "GPU 0"}}, Options{}); err == nil {
		t.Error("a worker without runner was accepted")
	}
}

// TestQueueManyClients: 40 jobs on 3 GPUs, never more than 3 at once, all
// run exactly once.
func TestQueueManyClients(t *testing.T) {
	var mu sync.Mutex
	running, most, ran := 0, 0, map[string]int{}
	r := RunnerFunc(func(ctx context.Context, job Job, emit func(trace.Event)) (Result, error) {
		mu.Lock()
		running++
		most = max(most, running)
		ran[job.Script]++
		mu.Unlock()
		time.Sleep(time.Millisecond)
		mu.Lock()
		running--
		mu.Unlock()
		return Result{}, nil
	})
	q := newTestQueue(t, []Worker{{Name: "0", Runner: r}, {Name: "1", Runner: r}, {Name: "2", Runner: r}}, Options{})
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := q.Submit(context.Background(), Job{Script: string(rune('A' + i))}, Notifier{}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if most > 3 || len(ran) != 40 {
		t.Errorf("at most %d at once, %d distinct jobs ran", most, len(ran))
	}
	for s, n := range ran {
		if n != 1 {
			t.Errorf("job %s ran %d times", s, n)
		}
	}
}

func TestReadRecordingRejectsGaps(t *testing.T) {
	rec := loadH100(t)
	if len(rec.Events) < 20 || rec.Events[0].GPU == nil {
		t.Fatalf("fixture has %d events", len(rec.Events))
	}
	bad := `{"events":[{"seq":0,"kind":"line","line":1,"stats":{}},{"seq":2,"kind":"line","line":2,"stats":{}}]}`
	if _, err := ReadRecording(strings.NewReader(bad)); err == nil {
		t.Error("a recording with a gap in seq was accepted")
	}
}

// log0 discards the queue's log.
func log0() *log.Logger { return log.New(io.Discard, "", 0) }
