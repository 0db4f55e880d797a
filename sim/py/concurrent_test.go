package py

import (
	"bytes"
	"context"
	"sync"
	"testing"
)

// TestConcurrentRuns runs interpreters in parallel (run with -race): they
// must share nothing mutable.
func TestConcurrentRuns(t *testing.T) {
	src := []byte("import math, gc, sys\nclass A:\n    def __del__(self):\n        print('del')\nx = [A() for _ in range(3)]\nprint(id(int), id(len), hash('x'), repr(int), len.__name__ if hasattr(len, '__name__') else '')\ndel x\ngc.collect()\nprint(sys.getrefcount(None) > 0, math.sqrt(4))\n")
	var wg sync.WaitGroup
	outs := make([]string, 4)
	for i := range outs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			var out bytes.Buffer
			it := New(Options{Stdout: &out})
			if err := it.ExecScript(context.Background(), src); err != nil {
				t.Error(err)
			}
			outs[i] = out.String()
		}(i)
	}
	wg.Wait()
	for _, o := range outs[1:] {
		if o != outs[0] {
			t.Fatalf("runs differ:\n%s\n%s", outs[0], o)
		}
	}
}
