package py

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"testing"
	"time"
)

// settledGoroutines waits until the number of goroutines drops to want
// (a body's goroutine exits just after its last hand-off) and returns the
// count seen.
func settledGoroutines(want int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 200 && n > want; i++ {
		time.Sleep(5 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

// hostileGenerators are scripts that leave generator bodies suspended, or
// end inside them, in every way a run can end.
var hostileGenerators = []struct {
	name, src string
	limits    Limits
	timeout   time.Duration
	wantErr   string // substring of the ScriptError, "" for none
}{
	{name: "abandoned at module level", src: "def g():\n    yield 1\n    yield 2\nx = g()\nnext(x)\n"},
	{name: "abandoned in a cycle", src: "def g():\n    try:\n        yield 1\n    finally:\n        print('fin')\nclass H: pass\nh = H()\nh.h = h\nh.g = g()\nnext(h.g)\ndel h\n"},
	{name: "many abandoned", src: "def g(i):\n    yield i\nkeep = []\nfor i in range(50):\n    x = g(i)\n    next(x)\n    keep.append(x)\n"},
	{name: "yield from chain", src: "def leaf():\n    yield 1\ndef mid():\n    yield from leaf()\ndef top():\n    yield from mid()\nt = top()\nnext(t)\n"},
	{name: "ignores GeneratorExit", src: "def g():\n    while True:\n        try:\n            yield 1\n        except GeneratorExit:\n            pass\nx = g()\nnext(x)\ntry:\n    x.close()\nexcept RuntimeError:\n    pass\ndel x\n"},
	{name: "raises inside", src: "def g():\n    yield 1\n    raise ValueError('boom')\nx = g()\nnext(x)\ny = g()\nnext(y)\nnext(x)\n", wantErr: "ValueError: boom"},
	{name: "uncaught while another is suspended", src: "def g():\n    yield 1\na = g()\nnext(a)\nraise KeyError('k')\n", wantErr: "KeyError"},
	{name: "step limit in an infinite generator", src: "def forever():\n    i = 0\n    while True:\n        yield i\n        i += 1\nkeep = forever()\nnext(keep)\nlist(forever())\n",
		limits: Limits{MaxSteps: 20_000}, wantErr: "LimitError: the script ran more than 20,000 steps"},
	{name: "step limit while others wait", src: "def g(n):\n    yield n\n    while True:\n        pass\nxs = [g(i) for i in range(5)]\nfor x in xs:\n    next(x)\nnext(xs[0])\n",
		limits: Limits{MaxSteps: 20_000}, wantErr: "LimitError"},
	{name: "time limit inside", src: "def g():\n    while True:\n        yield 1\nfor _ in g():\n    pass\n",
		limits: Limits{MaxDuration: 50 * time.Millisecond, MaxSteps: 1 << 40}, wantErr: "LimitError: the script ran longer than"},
	{name: "cancelled inside", src: "def g():\n    while True:\n        yield 1\nh = g()\nnext(h)\nfor _ in g():\n    pass\n",
		limits: Limits{MaxSteps: 1 << 40}, timeout: 50 * time.Millisecond, wantErr: "LimitError: the run was cancelled"},
	{name: "recursion through generators", src: "def g(n):\n    yield from g(n + 1)\n    yield n\nnext(g(0))\n", wantErr: "RecursionError"},
	{name: "too many suspended", src: "def g():\n    yield 1\nkeep = []\nfor i in range(200):\n    x = g()\n    next(x)\n    keep.append(x)\n",
		limits: Limits{MaxGenerators: 100}, wantErr: "LimitError: more than 100 generators were suspended at once"},
	{name: "output limit inside", src: "def g():\n    while True:\n        print('x' * 100)\n        yield\nfor _ in g():\n    pass\n",
		limits: Limits{MaxOutput: 1000}, wantErr: "LimitError: the script printed more than"},
}

// TestGeneratorGoroutines checks that no generator goroutine outlives its
// run, however the run ends.
func TestGeneratorGoroutines(t *testing.T) {
	for _, tc := range hostileGenerators {
		t.Run(tc.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			ctx := context.Background()
			if tc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.timeout)
				defer cancel()
			}
			it := New(Options{Limits: tc.limits})
			err := it.ExecScript(ctx, []byte(tc.src))
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
			if n := settledGoroutines(before); n > before {
				t.Fatalf("%d goroutines left running (%d before)", n-before, before)
			}
			if len(it.gens) != 0 {
				t.Fatalf("%d generators still listed", len(it.gens))
			}
		})
	}
}

// TestGeneratorKeepAndClose checks the KeepGenerators mode: the final
// collection closes generators in cycles (their finally blocks run, as
// after CPython's exec), Close ends the rest, and no reference leaks.
func TestGeneratorKeepAndClose(t *testing.T) {
	before := runtime.NumGoroutine()
	var out bytes.Buffer
	it := New(Options{Stdout: &out, KeepGenerators: true})
	src := "def g(tag):\n    try:\n        yield 1\n    finally:\n        print('fin', tag)\na = g('a')\nnext(a)\nb = g('b')\nnext(b)\n"
	if err := it.ExecScript(context.Background(), []byte(src)); err != nil {
		t.Fatal(err)
	}
	if len(it.gens) != 2 {
		t.Fatalf("%d generators suspended after the run, want 2", len(it.gens))
	}
	if leaks := it.Leaks(); len(leaks) != 0 {
		t.Fatalf("leaked: %v", leaks)
	}
	if got := out.String(); got != "fin a\nfin b\n" {
		t.Fatalf("output %q", got)
	}
	it.Close()
	if n := settledGoroutines(before); n > before {
		t.Fatalf("%d goroutines left running", n-before)
	}
}

// TestGeneratorNoLeaks runs generator scripts to completion and checks that
// every object they made was released (Leaks: no reference-count error).
func TestGeneratorNoLeaks(t *testing.T) {
	srcs := []string{
		"def g():\n    x = [1]\n    y = yield x\n    yield y\nh = g()\nnext(h)\nh.send([2])\nlist(h)\n",
		"def g():\n    try:\n        yield 1\n    except KeyError as e:\n        yield [e]\nh = g()\nnext(h)\nh.throw(KeyError('k'))\nh.close()\n",
		"def inner():\n    r = yield [1]\n    return [r]\ndef outer():\n    v = yield from inner()\n    yield v\nh = outer()\nnext(h)\nprint(h.send('s'))\nh.close()\n",
		"def g():\n    yield 1\n    raise StopIteration\ntry:\n    list(g())\nexcept RuntimeError as e:\n    err = e\n",
		"def g():\n    yield [1]\n    return 'r'\nh = g()\nnext(h)\ntry:\n    next(h)\nexcept StopIteration as e:\n    v = e.value\n",
		"def g(a, *b, **c):\n    yield a, b, c\nx = list(g(1, 2, k=3))\ntry:\n    g()\nexcept TypeError:\n    pass\n",
	}
	for i, src := range srcs {
		it := New(Options{KeepGenerators: true})
		if err := it.ExecScript(context.Background(), []byte(src)); err != nil {
			t.Fatalf("script %d: %v", i, err)
		}
		if leaks := it.Leaks(); len(leaks) != 0 {
			t.Errorf("script %d leaked: %v", i, leaks)
		}
		it.Close()
	}
}

// TestGeneratorPanic checks that a Go panic inside a generator body (here
// in host code it calls) ends the run with an InternalError instead of
// crashing the process, and leaves no goroutine behind.
func TestGeneratorPanic(t *testing.T) {
	before := runtime.NumGoroutine()
	it := New(Options{})
	it.RegisterModule("boom", func(it *Interp) (*Module, error) {
		m := it.NewModule("boom")
		m.Add(it, "explode", NewBuiltin("explode", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
			panic("host bug")
		}))
		return m, nil
	})
	src := "import boom\ndef g():\n    yield 1\n    boom.explode()\n    yield 2\nother = g()\nnext(other)\nh = g()\nnext(h)\ntry:\n    next(h)\nexcept BaseException:\n    print('caught?')\n"
	err := it.ExecScript(context.Background(), []byte(src))
	se, ok := err.(*ScriptError)
	if !ok || se.Type != "InternalError" || !strings.Contains(se.Message, "host bug") {
		t.Fatalf("got %v", err)
	}
	if n := settledGoroutines(before); n > before {
		t.Fatalf("%d goroutines left running", n-before)
	}
}

// BenchmarkGeneratorNext measures one next() of a generator function (a
// hand-off to its goroutine and back), consumed by a for loop.
func BenchmarkGeneratorNext(b *testing.B) {
	src := []byte("def g(n):\n    i = 0\n    while i < n:\n        yield i\n        i += 1\nfor x in g(N):\n    pass\n")
	src = bytes.Replace(src, []byte("N"), []byte("100000"), 1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		it := New(Options{})
		if err := it.ExecScript(context.Background(), src); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100000, "ns/next")
}
