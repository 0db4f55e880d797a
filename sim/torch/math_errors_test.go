package torch

import (
	"os"
	"strings"
	"testing"
)

// TestMathErrors checks the family's argument errors against the messages
// PyTorch 2.11 printed in testdata/questions/q20_math_reduce_products.out
// ("ERR Type: message" items).
func TestMathErrors(t *testing.T) {
	S := []int64{64, 1000}
	mk := func(dt DType, shape ...int64) func(rt *Runtime) *Tensor {
		return func(rt *Runtime) *Tensor { return rnd(dt, false, shape...)(rt)[0] }
	}
	f32 := mk(Float32, S...)
	i64 := mk(Int64, S...)
	cases := []struct {
		item string // the recording's item name
		run  func(rt *Runtime) error
	}{
		{"frac i64", func(rt *Runtime) error { _, err := rt.MathUnary("frac", i64(rt)); return err }},
		{"hypot i64", func(rt *Runtime) error { _, err := rt.MathBinary("hypot", i64(rt), i64(rt)); return err }},
		{"logaddexp i64", func(rt *Runtime) error { _, err := rt.MathBinary("logaddexp", i64(rt), i64(rt)); return err }},
		{"logcumsumexp i64", func(rt *Runtime) error { _, err := rt.Logcumsumexp(mk(Int64, 64, 100)(rt), 1); return err }},
		{"isclose err dtype", func(rt *Runtime) error {
			_, err := rt.Isclose(f32(rt), mk(Float64, S...)(rt), 1e-5, 1e-8, false)
			return err
		}},
		{"isclose err rtol", func(rt *Runtime) error { _, err := rt.Isclose(f32(rt), f32(rt), -1, 1e-8, false); return err }},
		{"var_mean i64", func(rt *Runtime) error { _, _, err := rt.StdVarMean("var", i64(rt), nil, 1, false); return err }},
		{"diff err 0-dim", func(rt *Runtime) error { _, err := rt.Diff(mk(Float32)(rt), 1, -1, nil, nil); return err }},
		{"diff err n<0", func(rt *Runtime) error { _, err := rt.Diff(f32(rt), -1, -1, nil, nil); return err }},
		{"trace err 1-d", func(rt *Runtime) error { _, err := rt.Trace(mk(Float32, 100)(rt)); return err }},
		{"inner err", func(rt *Runtime) error {
			_, err := rt.Inner(mk(Float32, 64, 100)(rt), mk(Float32, 32, 99)(rt))
			return err
		}},
		{"mv err size", func(rt *Runtime) error { _, err := rt.Mv(mk(Float32, 1000, 512)(rt), mk(Float32, 511)(rt)); return err }},
		{"mv err dim", func(rt *Runtime) error {
			_, err := rt.Mv(mk(Float32, 1000, 512)(rt), mk(Float32, 512, 1)(rt))
			return err
		}},
		{"linalg.cross err size", func(rt *Runtime) error {
			_, err := rt.LinalgCross(mk(Float32, 1000, 4)(rt), mk(Float32, 1000, 4)(rt), -1)
			return err
		}},
		{"cdist f16 small", func(rt *Runtime) error {
			_, err := rt.Cdist(mk(Float16, 10, 64)(rt), mk(Float16, 20, 64)(rt), 2, 0)
			return err
		}},
		{"cdist err cols", func(rt *Runtime) error {
			_, err := rt.Cdist(mk(Float32, 10, 64)(rt), mk(Float32, 20, 63)(rt), 2, 0)
			return err
		}},
		{"cdist err p<0", func(rt *Runtime) error {
			_, err := rt.Cdist(mk(Float32, 10, 64)(rt), mk(Float32, 20, 64)(rt), -1, 0)
			return err
		}},
	}
	want := readErrors(t, "q20_math_reduce_products.out")
	for _, c := range cases {
		t.Run(c.item, func(t *testing.T) {
			w, ok := want[c.item]
			if !ok {
				t.Fatalf("%s: no ERR line in the recording", c.item)
			}
			rt, _ := newTestRuntime(t)
			err := c.run(rt)
			if err == nil {
				t.Fatalf("no error, want %q", w)
			}
			if got := errorLine(err); got != w {
				t.Errorf("error\n got: %s\nwant: %s", got, w)
			}
		})
	}
}

// readErrors returns the "Type: message" of the recording's ERR items.
func readErrors(t *testing.T, name string) map[string]string {
	t.Helper()
	out := map[string]string{}
	data, err := os.ReadFile("testdata/questions/" + name)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		parts := strings.SplitN(l, " | ", 2)
		if len(parts) == 2 && strings.HasPrefix(parts[1], "ERR ") {
			out[parts[0]] = strings.TrimPrefix(parts[1], "ERR ")
		}
	}
	return out
}

// errorLine formats a simulator error as Python prints "Type: message".
func errorLine(err error) string {
	if te, ok := err.(*Error); ok {
		kind := map[ErrKind]string{RuntimeError: "RuntimeError", TypeError: "TypeError", ValueError: "ValueError",
			IndexError: "IndexError", NotImplementedError: "NotImplementedError"}[te.Kind]
		return kind + ": " + te.Msg
	}
	return err.Error()
}
