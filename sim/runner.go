package sim

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gpumem/playground/sim/alloc"
	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
	"github.com/gpumem/playground/sim/torch/prelude"
	"github.com/gpumem/playground/sim/torch/pybind"
	"github.com/gpumem/playground/sim/trace"
)

// runner is the state of one Run: the event stream, the harness rows and
// the model.
type runner struct {
	req    Request
	prof   profile.Profile
	sink   func(trace.Event)
	lim    Limits
	it     *py.Interp
	alloc  *alloc.Allocator
	events []trace.Event
	seq    int
	rows   [][]int64
	stdout strings.Builder
	lost   int  // events beyond MaxEvents
	ended  bool // the run is over: events are no longer kept (a Backend's cache being emptied)
}

func newRunner(req Request, prof profile.Profile, sink func(trace.Event)) *runner {
	lim := req.Limits
	def := DefaultLimits()
	if lim.MaxEvents == 0 {
		lim.MaxEvents = def.MaxEvents
	}
	return &runner{req: req, prof: prof, sink: sink, lim: lim}
}

// emit stamps an event with its sequence number, line and current stats.
func (r *runner) emit(e trace.Event) {
	if r.ended {
		return
	}
	e.Seq = r.seq
	r.seq++
	if e.Line == 0 && r.it != nil {
		e.Line = r.it.Line()
	}
	if r.alloc != nil && e.Kind != trace.SegmentAlloc && e.Kind != trace.Alloc && e.Kind != trace.Free &&
		e.Kind != trace.SegmentFree && e.Kind != trace.SegmentMap && e.Kind != trace.SegmentUnmap &&
		e.Kind != trace.OOM && e.Kind != trace.Relabel {
		e.Stats = r.alloc.Stats()
	}
	if r.req.Backend != nil {
		r.req.Backend.Stamp(&e)
	}
	if len(r.events) < r.lim.MaxEvents {
		r.events = append(r.events, e)
	} else {
		r.lost++
	}
	if r.sink != nil {
		r.sink(e)
	}
}

// stats are the allocator's figures (zero before CUDA is initialised).
func (r *runner) stats() trace.Stats {
	if r.alloc == nil {
		return trace.Stats{}
	}
	return r.alloc.Stats()
}

// stdoutWriter turns the script's writes into Output events.
type stdoutWriter struct{ r *runner }

func (w stdoutWriter) Write(p []byte) (int, error) {
	w.r.stdout.Write(p)
	w.r.emit(trace.Event{Kind: trace.Output, Text: string(p)})
	return len(p), nil
}

func (r *runner) pyLimits() py.Limits {
	l := r.req.Limits
	return py.Limits{MaxSteps: l.MaxSteps, MaxDuration: l.MaxDuration, MaxOutput: l.MaxOutput,
		MaxScript: l.MaxScript, MaxDepth: l.MaxRecursion, MaxCollection: l.MaxCollection}
}

func (r *runner) run(ctx context.Context, env map[string]string) (*Result, error) {
	var host *pybind.Host
	exec := executorOf(r.req.Backend)
	sm := r.prof.ComputeMajor*10 + r.prof.ComputeMinor
	rt := torch.NewRuntime(torch.Config{
		CuBLASWorkspace:   r.prof.CuBLASWorkspace,
		CuBLASLtWorkspace: r.prof.CuBLASLtWorkspace,
		InitCUDA:          r.initCUDA,
		Line:              func() int { return r.it.Line() },
		Executor:          exec,
		SM:                sm,
	})
	if !r.prof.WorkspacesCounted {
		rt = torch.NewRuntime(torch.Config{InitCUDA: r.initCUDA, Line: func() int { return r.it.Line() }, Executor: exec, SM: sm})
	}
	host = pybind.New(rt, r.prof)
	filename := r.req.Filename
	if filename == "" {
		filename = "<script>"
	}
	r.it = py.New(py.Options{
		Stdout:   stdoutWriter{r},
		Limits:   r.pyLimits(),
		Env:      env,
		Filename: filename,
		OnLine: func(line int) {
			// Python run from backward (checkpoint recomputation, a custom
			// Function's backward, hooks) runs on PyTorch's autograd device
			// thread, which sys.settrace does not follow: no line event.
			if !host.Traced() {
				return
			}
			r.emit(trace.Event{Kind: trace.Line, Line: line, Stats: r.stats()})
			if len(r.rows) < trace.MaxRows && !r.req.NoGolden {
				r.rows = append(r.rows, trace.RowOf(line, r.stats()).Ints())
			}
		},
		OnBind: host.OnBind,
	})
	host.Register(r.it)
	defer host.Close()
	if err := prelude.Register(r.it); err != nil {
		return nil, errors.New("sim: the torch prelude: " + err.Error())
	}
	if err := preload(r.it); err != nil {
		return nil, errors.New("sim: loading the torch prelude: " + err.Error())
	}
	serr := r.it.ExecScript(ctx, []byte(r.req.Script))
	res := &Result{}
	if serr != nil {
		res.Error = scriptError(serr)
		r.emit(trace.Event{Kind: trace.Error, Line: res.Error.Line, Text: res.Error.Traceback})
	}
	r.emit(trace.Event{Kind: trace.End, Line: -1})
	r.rows = append(r.rows, trace.RowOf(-1, r.stats()).Ints())
	res.Stdout = r.stdout.String()
	res.Events = r.events
	if !r.req.NoGolden {
		res.Golden = r.golden(res)
	}
	if r.req.Backend != nil && r.alloc != nil {
		// A real device gets its cached segments back, as the end of a
		// PyTorch process would return them; the stream has already ended.
		r.ended = true
		r.alloc.EmptyCache()
	}
	return res, nil
}

// initCUDA creates the caching allocator with the settings of os.environ
// as the script sees it now.
func (r *runner) initCUDA() (torch.Memory, error) {
	cfg, err := alloc.ConfigFromEnv(func(k string) string {
		v, _ := r.it.Getenv(k)
		return v
	})
	if err != nil {
		return nil, torch.Errorf(torch.RuntimeError, "%s", err.Error())
	}
	var dev alloc.Device = alloc.NewSimDevice(r.prof)
	if r.req.Backend != nil {
		dev = r.req.Backend.Device()
	}
	r.alloc = alloc.New(r.prof, cfg, dev, r.emit)
	return torch.AllocMemory{A: r.alloc}, nil
}

// scriptError converts the interpreter's error; the type is the class's
// __name__, as the harness records type(e).__name__.
func scriptError(err error) *ScriptError {
	var se *py.ScriptError
	if errors.As(err, &se) {
		t := se.Type
		if i := strings.LastIndex(t, "."); i >= 0 {
			t = t[i+1:]
		}
		return &ScriptError{Type: t, Message: se.Message, Traceback: se.Traceback, Line: se.Line, Col: se.Col}
	}
	return &ScriptError{Type: "InternalError", Message: err.Error(), Traceback: "InternalError: " + err.Error() + "\n"}
}

// golden builds the harness's JSON for this run.
func (r *runner) golden(res *Result) *trace.Golden {
	g := &trace.Golden{Stdout: res.Stdout, Trace: r.rows, TraceColumns: trace.RowColumns,
		FinalStats: map[string]int64{}, Torch: r.prof.TorchVersion, Device: r.prof.GPUName,
		TotalMemory: r.prof.TotalMemory, Snapshot: []trace.SnapshotSegment{}}
	if res.Error != nil {
		s := res.Error.Error()
		g.Error = &s
	}
	if r.alloc == nil {
		r.alloc = alloc.New(r.prof, alloc.DefaultConfig(), alloc.NewSimDevice(r.prof), nil)
	}
	for _, e := range r.alloc.MemoryStats() {
		g.FinalStats[e.Key] = e.Value
	}
	for _, sg := range r.alloc.Snapshot().Segments {
		blocks := make([][]any, len(sg.Blocks))
		for i, b := range sg.Blocks {
			blocks[i] = []any{b.Size, b.State}
		}
		g.Snapshot = append(g.Snapshot, trace.SnapshotSegment{TotalSize: sg.TotalSize, SegmentType: string(sg.Pool),
			AllocatedSize: sg.AllocatedSize, Blocks: blocks})
	}
	return g
}

// preload imports torch and its submodules before the script, as `import
// torch` does in PyTorch (so torch.nn, torch.optim, ... are attributes of
// torch without their own import). Nothing touches the GPU here.
func preload(it *py.Interp) error {
	for _, m := range pybind.Submodules {
		v, err := it.Import(m)
		if err != nil {
			return fmt.Errorf("import %s: %w", m, err)
		}
		it.DecRef(v)
	}
	return nil
}
