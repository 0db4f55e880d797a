package py

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"time"
)

// Interp is one run of the interpreter. It is not safe for concurrent use;
// separate Interps share nothing mutable.
type Interp struct {
	opts   Options
	limits Limits
	stdout io.Writer
	outN   int

	ctx      context.Context
	deadline time.Time
	steps    int64

	modules  map[string]*Module // sys.modules
	registry map[string]moduleDef
	lazy     map[string]map[string]string // module → attribute → defining module (lazy.go)
	builtins *Dict

	frame *frame                  // innermost frame
	gens  map[*Generator]struct{} // generator bodies started and not finished (gen.go)
	depth int

	nextID       uint64
	trash        []Object
	deallocDepth int

	gc gcState

	// handled is the stack of exceptions being handled (sys.exc_info).
	handled []Value

	env     *Dict // os.environ
	clockNS int64 // time module's virtual clock
	rng     uint64

	lineHook func(line int)
	bindHook func(name string, v Value)

	mainFile  string
	reprStack []Object
	sharedIDs map[Object]uint64
}

type moduleDef struct {
	build    func(it *Interp) (*Module, error)
	filename string
	src      []byte
	flags    int
}

// New returns an interpreter for one run.
func New(opts Options) *Interp {
	lim := opts.Limits
	def := DefaultLimits()
	if lim.MaxSteps == 0 {
		lim.MaxSteps = def.MaxSteps
	}
	if lim.MaxDuration == 0 {
		lim.MaxDuration = def.MaxDuration
	}
	if lim.MaxOutput == 0 {
		lim.MaxOutput = def.MaxOutput
	}
	if lim.MaxScript == 0 {
		lim.MaxScript = def.MaxScript
	}
	if lim.MaxDepth == 0 {
		lim.MaxDepth = def.MaxDepth
	}
	if lim.MaxCollection == 0 {
		lim.MaxCollection = def.MaxCollection
	}
	if lim.MaxGenerators == 0 {
		lim.MaxGenerators = def.MaxGenerators
	}
	out := opts.Stdout
	if out == nil {
		out = io.Discard
	}
	if opts.Filename == "" {
		opts.Filename = "<script>"
	}
	it := &Interp{
		opts:     opts,
		limits:   lim,
		stdout:   out,
		modules:  map[string]*Module{},
		registry: map[string]moduleDef{},
		lineHook: opts.OnLine,
		bindHook: opts.OnBind,
		rng:      uint64(opts.Seed)*0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D,
		clockNS:  1_700_000_000 * int64(time.Second),
		ctx:      context.Background(),
	}
	it.gc = newGCState()
	it.builtins = builtinsDict
	it.registerStdlib()
	return it
}

// RegisterModule registers a module written in Go. build runs on the first
// import of name and returns the module (a new reference); dotted names
// ("torch.cuda") are submodules of their parent package.
func (it *Interp) RegisterModule(name string, build func(it *Interp) (*Module, error)) {
	it.registry[name] = moduleDef{build: build}
}

// RegisterSource registers a module written in Python (a prelude file),
// executed on first import with filename shown in tracebacks; flags are
// Package and HideFrames. The compiled code is cached across interpreters
// (codecache.go): importing the same source again in another run only
// executes its body. src is read, never modified; the caller must not
// modify it while the interpreter is in use.
func (it *Interp) RegisterSource(name, filename string, src []byte, flags int) {
	it.registry[name] = moduleDef{filename: filename, src: src, flags: flags}
}

// Steps returns the number of steps executed so far.
func (it *Interp) Steps() int64 { return it.steps }

// Line returns the current line of the innermost frame of the script's own
// file, or 0 when no script frame is active.
func (it *Interp) Line() int {
	for f := it.frame; f != nil; f = f.back {
		if f.code.traced {
			return f.line
		}
	}
	return 0
}

// Getenv returns os.environ[name] as the script left it.
func (it *Interp) Getenv(name string) (string, bool) {
	if it.env == nil {
		v, ok := it.opts.Env[name]
		return v, ok
	}
	v, ok := it.env.getStr(name)
	if !ok {
		return "", false
	}
	s, ok := v.(Str)
	return string(s), ok
}

// AdvanceClock moves the time module's virtual clock forward (time.time,
// time.perf_counter and time.monotonic read it; time.sleep advances it).
func (it *Interp) AdvanceClock(d time.Duration) { it.clockNS += int64(d) }

// id returns the stable identity number of an object (a fake address).
func (it *Interp) id(o Object) uint64 {
	b := o.base()
	if b.flags&flagImmortal != 0 {
		// Shared objects are never written to (runs are concurrent).
		if it.sharedIDs == nil {
			it.sharedIDs = map[Object]uint64{}
		}
		if id, ok := it.sharedIDs[o]; ok {
			return id
		}
		it.nextID++
		id := 0x7f0000001000 + it.nextID*0x40
		it.sharedIDs[o] = id
		return id
	}
	if b.id == 0 {
		it.nextID++
		b.id = 0x7f0000001000 + it.nextID*0x40
	}
	return b.id
}

// step counts one step and enforces the step, time and cancellation limits.
func (it *Interp) step() error {
	it.steps++
	if it.steps > it.limits.MaxSteps {
		return &LimitError{Msg: "the script ran more than " + groupThousands(it.limits.MaxSteps) + " steps"}
	}
	if it.steps&1023 == 0 {
		if !it.deadline.IsZero() && time.Now().After(it.deadline) {
			return &LimitError{Msg: "the script ran longer than " + it.limits.MaxDuration.String()}
		}
		if err := it.ctx.Err(); err != nil {
			return &LimitError{Msg: "the run was cancelled (" + err.Error() + ")"}
		}
	}
	return nil
}

// checkSize enforces the collection size limit.
func (it *Interp) checkSize(n int) error {
	if n > it.limits.MaxCollection || n < 0 {
		return &LimitError{Msg: "a collection grew beyond " + groupThousands(int64(it.limits.MaxCollection)) + " elements"}
	}
	return nil
}

func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	out := ""
	for len(s) > 3 {
		out = "," + s[len(s)-3:] + out
		s = s[:len(s)-3]
	}
	return s + out
}

// write sends text to stdout, enforcing the output limit.
func (it *Interp) write(s string) error {
	it.outN += len(s)
	if it.outN > it.limits.MaxOutput {
		return &LimitError{Msg: "the script printed more than " + groupThousands(int64(it.limits.MaxOutput)) + " bytes"}
	}
	_, err := io.WriteString(it.stdout, s)
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}
