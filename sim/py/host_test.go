package py

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
)

// fakeTensor is a host type used to test the host API.
type fakeTensor struct {
	Base
	name string
	log  *[]string
	grad Value
	ops  int
}

var fakeTensorClass = NewHostClass(ClassSpec{
	Name: "Tensor", Module: "torch",
	Methods: map[string]MethodFunc{
		"detach": func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
			t := self.(*fakeTensor)
			return newFake(it, t.name+".detach", t.log), nil
		},
	},
	Props: map[string]PropSpec{
		"grad": {
			Get: func(it *Interp, self Value) (Value, error) {
				t := self.(*fakeTensor)
				if t.grad == nil {
					return None, nil
				}
				return IncRef(t.grad), nil
			},
			Set: func(it *Interp, self, v Value) error {
				t := self.(*fakeTensor)
				old := t.grad
				t.grad = nil
				if v != nil && v != None {
					t.grad = IncRef(v)
				}
				if old != nil {
					it.DecRef(old)
				}
				return nil
			},
		},
	},
})

func (*fakeTensor) Type() *Class { return fakeTensorClass }

func newFake(it *Interp, name string, log *[]string) *fakeTensor {
	t := &fakeTensor{name: name, log: log}
	it.Track(t)
	*log = append(*log, "alloc "+name)
	return t
}

func (t *fakeTensor) Finalize(it *Interp) {
	*t.log = append(*t.log, "free "+t.name)
	if t.grad != nil {
		g := t.grad
		t.grad = nil
		it.DecRef(g)
	}
}

func (t *fakeTensor) Traverse(visit func(Value)) {
	if t.grad != nil {
		visit(t.grad)
	}
}

func (t *fakeTensor) Clear(it *Interp) {
	if t.grad != nil {
		g := t.grad
		t.grad = nil
		it.DecRef(g)
	}
}

func (t *fakeTensor) Binary(it *Interp, op Op, other Value, reflected bool) (Value, error) {
	t.ops++
	return newFake(it, fmt.Sprintf("(%s%s)", t.name, opSymbols[op]), t.log), nil
}

func (t *fakeTensor) Inplace(it *Interp, op Op, other Value) (Value, error) {
	*t.log = append(*t.log, "inplace "+t.name)
	return IncRef(t), nil
}

func (t *fakeTensor) Repr(it *Interp) (string, error) { return "tensor(" + t.name + ")", nil }

func runHost(t *testing.T, src string) ([]string, string) {
	var log []string
	var out bytes.Buffer
	var binds []string
	it := New(Options{Stdout: &out, OnBind: func(name string, v Value) {
		if ft, ok := v.(*fakeTensor); ok {
			binds = append(binds, name+"="+ft.name)
		}
	}})
	n := 0
	it.RegisterModule("torch", func(it *Interp) (*Module, error) {
		m := it.NewModule("torch")
		m.Set(it, "Tensor", fakeTensorClass)
		m.Add(it, "randn", NewBuiltin("randn", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
			n++
			return newFake(it, fmt.Sprintf("t%d", n), &log), nil
		}))
		m.Add(it, "OutOfMemoryError", NewExceptionClass("OutOfMemoryError", "torch", RuntimeError))
		m.Add(it, "oom", NewBuiltin("oom", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
			cls, _ := it.modules["torch"].Dict.getStr("OutOfMemoryError")
			return nil, NewException(cls.(*Class), "CUDA out of memory. Tried to allocate 2.00 GiB")
		}))
		return m, nil
	})
	err := it.ExecScript(context.Background(), []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, err.(*ScriptError).Traceback)
	}
	if leaks := it.Leaks(); len(leaks) > 0 {
		t.Errorf("leaks: %v", leaks)
	}
	return append(log, binds...), out.String()
}

func TestHostLifetimes(t *testing.T) {
	log, out := runHost(t, `import torch
a = torch.randn()
b = torch.randn()
c = a + b
c = a * b
x = torch.randn().detach()
a += 1
print(isinstance(a, torch.Tensor), a)
a.grad = torch.randn()
a.grad = None
try:
    torch.oom()
except torch.OutOfMemoryError as e:
    print("oom:", e)
class MyErr(torch.OutOfMemoryError):
    pass
print(issubclass(MyErr, RuntimeError))
del b
`)
	want := []string{
		"alloc t1", "alloc t2", "alloc (t1+)", "alloc (t1*)", "free (t1+)",
		"alloc t3", "alloc t3.detach", "free t3", "inplace t1",
		"alloc t4", "free t4", "free t2",
		// globals released at the end, in insertion order (no functions
		// referencing the globals, so no cycle keeps them)
		"free t1", "free (t1*)", "free t3.detach",
		"a=t1", "b=t2", "c=(t1+)", "c=(t1*)", "x=t3.detach", "a=t1",
	}
	if strings.Join(log, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(log, "\n"), strings.Join(want, "\n"))
	}
	if out != "True tensor(t1)\noom: CUDA out of memory. Tried to allocate 2.00 GiB\nTrue\n" {
		t.Errorf("output %q", out)
	}
}

func TestCallBack(t *testing.T) {
	it := New(Options{})
	var out bytes.Buffer
	it = New(Options{Stdout: &out})
	var saved Value
	it.RegisterModule("hooks", func(it *Interp) (*Module, error) {
		m := it.NewModule("hooks")
		m.Add(it, "register", NewBuiltin("register", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
			saved = IncRef(args[0])
			return None, nil
		}))
		m.Add(it, "fire", NewBuiltin("fire", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
			return it.Call(saved, []Value{Int(41)}, []Kwarg{{"k", Str("x")}})
		}))
		return m, nil
	})
	err := it.ExecScript(context.Background(), []byte("import hooks\ndef h(n, k=None):\n    return (n + 1, k)\nhooks.register(h)\nprint(hooks.fire())\n"))
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != "(42, 'x')\n" {
		t.Fatalf("got %q", out.String())
	}
	it.DecRef(saved)
}

func TestUnpackArgs(t *testing.T) {
	var x Value
	dim := -1
	keep := false
	err := UnpackArgs("sum", []Value{Int(1), Int(2), Int(3)}, nil, "input", &x, "dim?", &dim, "*", "keepdim?", &keep)
	if err == nil || err.Error() != "TypeError: sum() takes 2 positional arguments but 3 were given" {
		t.Fatalf("got %v", err)
	}
	err = UnpackArgs("sum", []Value{Int(1)}, []Kwarg{{"keepdim", True}, {"dim", Int(0)}}, "input", &x, "dim?", &dim, "*", "keepdim?", &keep)
	if err != nil || dim != 0 || !keep {
		t.Fatalf("got %v %d %v", err, dim, keep)
	}
	err = UnpackArgs("sum", nil, nil, "input", &x)
	if err == nil || err.Error() != "TypeError: sum() missing required argument 'input' (pos 1)" {
		t.Fatalf("got %v", err)
	}
	err = UnpackArgs("sum", []Value{Int(1)}, []Kwarg{{"bogus", True}}, "input", &x)
	if err == nil || err.Error() != "TypeError: sum() got an unexpected keyword argument 'bogus'" {
		t.Fatalf("got %v", err)
	}
}
