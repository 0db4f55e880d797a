package py

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// cachedModSrc exercises what compiled code could share by mistake:
// constants of every atom kind (a big int included), tuple, list and dict
// displays, default values, closures, classes with __del__, a docstring,
// comprehensions and a lambda. Each interpreter must see fresh objects.
const cachedModSrc = `"""doc of the module"""
BIG = 123456789012345678901234567890
TUP = (1, 2.5, 'x', None, True, ...)
def make(acc=[], d={'k': 1}):
    """doc"""
    acc.append(len(acc))
    d['k'] += 1
    return acc, d
def counter():
    n = 0
    def inc():
        nonlocal n
        n += 1
        return n
    return inc
class Res:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print('del', self.name)
squares = [i * i for i in range(4)]
key = lambda x: -x
`

const cachedUseSrc = `import cachedmod
from cachedmod import make, counter, Res, squares
a, d = make()
a, d = make()
inc = counter()
inc(); inc()
r = Res('r')
squares.append(99)
print(cachedmod.BIG + 1, cachedmod.TUP, a, d, inc(), squares, sorted([3, 1, 2], key=cachedmod.key))
del r
`

const cachedUseWant = "123456789012345678901234567891 (1, 2.5, 'x', None, True, Ellipsis) [0, 1] {'k': 3} 3 [0, 1, 4, 9, 99] [3, 2, 1]\ndel r\n"

func runCached(t testing.TB, src string, mods map[string]string) (string, error) {
	var out bytes.Buffer
	it := New(Options{Stdout: &out})
	for name, m := range mods {
		it.RegisterSource(name, "<test>/"+name+".py", []byte(m), HideFrames)
	}
	err := it.ExecScript(context.Background(), []byte(src))
	return out.String(), err
}

// TestCodeCacheConcurrent runs interpreters in parallel importing the same
// cached module (run with -race): each must get its own objects and the
// same output as the first, uncached, import.
func TestCodeCacheConcurrent(t *testing.T) {
	mods := map[string]string{"cachedmod": cachedModSrc}
	first, err := runCached(t, cachedUseSrc, mods)
	if err != nil || first != cachedUseWant {
		t.Fatalf("first run: %q, %v; want %q", first, err, cachedUseWant)
	}
	var wg sync.WaitGroup
	outs := make([]string, 8)
	errs := make([]error, len(outs))
	for i := range outs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			outs[i], errs[i] = runCached(t, cachedUseSrc, mods)
		}(i)
	}
	wg.Wait()
	for i, o := range outs {
		if errs[i] != nil || o != cachedUseWant {
			t.Errorf("run %d: %q, %v; want %q", i, o, errs[i], cachedUseWant)
		}
	}
}

// TestCodeCacheKey checks that the cache tells sources apart: the same
// name with another source, and another name with the same source.
func TestCodeCacheKey(t *testing.T) {
	for i, tc := range []struct{ name, src, want string }{
		{"keymod", "X = 1\n", "1\n"},
		{"keymod", "X = 2\n", "2\n"},
		{"keymod", "X = 1\n", "1\n"},
		{"keymod2", "X = 2\n", "2\n"},
	} {
		out, err := runCached(t, "import "+tc.name+"\nprint("+tc.name+".X)\n", map[string]string{tc.name: tc.src})
		if err != nil || out != tc.want {
			t.Errorf("case %d: %q, %v; want %q", i, out, err, tc.want)
		}
	}
}

// TestCodeCacheErrors checks that a module that fails to parse or compile
// reports the same error at every import, cached or not.
func TestCodeCacheErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"def f(:\n    pass\n", "SyntaxError"},
		{"if True:\n  x = 1\n   y = 2\n", "IndentationError"},
		{"def f():\n    nonlocal q\n", "SyntaxError"},
	} {
		var msgs []string
		for range 3 {
			_, err := runCached(t, "import badmod\n", map[string]string{"badmod": tc.src})
			var se *ScriptError
			if !errors.As(err, &se) {
				t.Fatalf("%q: want a script error, got %v", tc.src, err)
			}
			if !strings.Contains(se.Type, tc.want) {
				t.Errorf("%q: error %s: %s, want %s", tc.src, se.Type, se.Message, tc.want)
			}
			msgs = append(msgs, fmt.Sprintf("%s: %s", se.Type, se.Message))
		}
		if msgs[1] != msgs[0] || msgs[2] != msgs[0] {
			t.Errorf("%q: errors differ between imports: %q", tc.src, msgs)
		}
	}
}

// BenchmarkImportCached measures importing a cached module (interpreter
// set-up included).
func BenchmarkImportCached(b *testing.B) {
	mods := map[string]string{"cachedmod": cachedModSrc}
	for b.Loop() {
		if _, err := runCached(b, "import cachedmod\n", mods); err != nil {
			b.Fatal(err)
		}
	}
}
