package torch

import "fmt"

// F.pad (at::pad, PyTorch 2.11): constant_pad_nd, reflection_pad{1,2,3}d,
// replication_pad{1,2,3}d and the composite _pad_circular. Measured in
// q18: each kernel allocates its output only (constant_pad_nd keeps the
// input's suggested memory format) and each backward allocates one
// input-sized gradient; circular padding is new_empty plus copy_ into
// slices (CopySlices in autograd), composed here from those ops.

// PadMode is F.pad's mode.
type PadMode string

// F.pad's modes.
const (
	PadConstant  PadMode = "constant"
	PadReflect   PadMode = "reflect"
	PadReplicate PadMode = "replicate"
	PadCircular  PadMode = "circular"
)

// Pad is torch._C._nn.pad(x, pad, mode, value) (value nil: not given).
func (rt *Runtime) Pad(x *Tensor, pad []int64, mode PadMode, value *float64) (*Tensor, error) {
	nd := len(x.shape)
	if len(pad)%2 != 0 {
		return nil, Errorf(RuntimeError, "Padding length must be divisible by 2")
	}
	if len(pad) > 2*nd {
		return nil, Errorf(RuntimeError, "Padding length should be less than or equal to two times the input dimension but got padding length %d and input of dimension %d", len(pad), nd)
	}
	if mode == PadConstant {
		v := 0.0
		if value != nil {
			v = *value
		}
		return rt.ConstantPadNd(x, pad, v)
	}
	if value != nil && *value != 0 {
		return nil, Errorf(RuntimeError, "Padding mode \"%s\" doesn't take in value argument", mode)
	}
	k := len(pad) / 2
	if k < 1 || k > 3 || (nd != k+1 && nd != k+2) {
		return nil, Errorf(NotImplementedError, "Padding size %d is not supported for %dD input tensor.", len(pad), nd)
	}
	if mode == PadCircular {
		return rt.padCircular(x, pad)
	}
	return rt.padBorder(x, pad, mode)
}

// padOutShape is the padded shape: pad pairs apply to the last dims,
// last dim first.
func padOutShape(shape, pad []int64) ([]int64, error) {
	out := cloneShape(shape)
	for i := 0; i < len(pad)/2; i++ {
		d := len(shape) - 1 - i
		out[d] = shape[d] + pad[2*i] + pad[2*i+1]
		if out[d] < 0 {
			return nil, Errorf(RuntimeError, "The input size %d, plus negative padding %d and %d resulted in a negative output size, which is invalid. Check dimension %d of your input.", shape[d], pad[2*i], pad[2*i+1], d)
		}
	}
	return out, nil
}

// ConstantPadNd is constant_pad_nd(x, pad, value): the output in x's
// suggested memory format; ConstantPadNdBackward0 is
// constant_pad_nd(grad, -pad), one input-sized allocation.
func (rt *Runtime) ConstantPadNd(x *Tensor, pad []int64, _ float64) (*Tensor, error) {
	if len(pad)%2 != 0 {
		return nil, Errorf(RuntimeError, "Length of pad must be even but instead it equals %d", len(pad))
	}
	if len(pad)/2 > len(x.shape) {
		return nil, Errorf(RuntimeError, "Length of pad should be no more than twice the number of dimensions of the input. Pad length is %d while the input has %d dimensions.", len(pad), len(x.shape))
	}
	shape, err := padOutShape(x.shape, pad)
	if err != nil {
		return nil, err
	}
	out, err := rt.empty("constant_pad_nd", shape, formatStridesOf(shape, suggestMemoryFormat(x)), x.dtype, x.device)
	if err != nil {
		return nil, err
	}
	in := cloneShape(x.shape)
	n := rt.record("ConstantPadNdBackward0", x)
	n.finish(func(_ *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.empty("constant_pad_nd", in, formatStridesOf(in, suggestMemoryFormat(g[0])), g[0].dtype, g[0].device)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// padBorder is reflection_pad{1,2,3}d / replication_pad{1,2,3}d: one
// contiguous output; the backward allocates grad_input (input-sized), and
// reflection's a contiguous copy of a non-contiguous grad_output.
func (rt *Runtime) padBorder(x *Tensor, pad []int64, mode PadMode) (*Tensor, error) {
	k := len(pad) / 2
	if mode == PadReflect {
		for i := 0; i < k; i++ {
			d := len(x.shape) - 1 - i
			if pad[2*i] >= x.shape[d] || pad[2*i+1] >= x.shape[d] {
				return nil, Errorf(RuntimeError, "Argument #4: Padding size should be less than the corresponding input dimension, but got: padding (%d, %d) at dimension %d of input %s", pad[2*i], pad[2*i+1], d, shapeList(x.shape))
			}
		}
	}
	shape, err := padOutShape(x.shape, pad)
	if err != nil {
		return nil, err
	}
	for _, s := range shape {
		if s < 1 {
			return nil, Errorf(RuntimeError, "input (%s) is too small. Calculated output %s", shapeList(x.shape), shapeList(shape))
		}
	}
	name := "Reflection"
	if mode == PadReplicate {
		name = "Replication"
	}
	op := fmt.Sprintf("%s_pad%dd", map[PadMode]string{PadReflect: "reflection", PadReplicate: "replication"}[mode], k)
	out, err := rt.empty(op, shape, nil, x.dtype, x.device)
	if err != nil {
		return nil, err
	}
	in, dt, dev := cloneShape(x.shape), x.dtype, x.device
	// derivatives.yaml: reflection/replication_pad*d_backward(grad, self,
	// padding) saves self (q053: the input stays alive)
	n := rt.record(fmt.Sprintf("%sPad%dDBackward0", name, k), x)
	if n != nil {
		n.save(x, false)
	}
	n.finish(func(_ *Node, g []*Tensor) ([]*Tensor, error) {
		if mode == PadReplicate {
			// replication_pad*d_backward reads grad_output through
			// packed accessors: no contiguous copy (q053's trace)
			r, err := rt.empty(op+"_backward", in, nil, dt, dev)
			return []*Tensor{r}, err
		}
		return rt.gradInputContig(op+"_backward", g[0], in, nil, dt, dev)
	}, out)
	return out, nil
}

// gradInputContig is the backward of a padding or upsampling kernel:
// grad_input (input-sized) is allocated, then a non-contiguous
// grad_output (the expanded gradient of a sum) is copied contiguous for
// the kernel and freed (q053).
func (rt *Runtime) gradInputContig(op string, g *Tensor, in, strides []int64, dt DType, dev Device) ([]*Tensor, error) {
	r, err := rt.empty(op, in, strides, dt, dev)
	if err != nil {
		return nil, err
	}
	if want := formatStridesOf(g.shape, suggestMemoryFormat(g)); !stridesMatch(g, want) {
		c, err := rt.empty("contiguous", g.shape, want, g.dtype, g.device)
		if err != nil {
			r.Release()
			return nil, err
		}
		c.Release()
	}
	return []*Tensor{r}, nil
}

// stridesMatch reports whether t's strides are want (size-1 dims ignored).
func stridesMatch(t *Tensor, want []int64) bool {
	for i, s := range t.shape {
		if s != 1 && t.strides[i] != want[i] {
			return false
		}
	}
	return true
}

// padCircular is ATen's _pad_circular: new_empty, the input copied into
// the middle, then each padded dim's borders copied from the other side
// of the output (slices and copy_, so CopySlices under autograd).
func (rt *Runtime) padCircular(x *Tensor, pad []int64) (*Tensor, error) {
	k := len(pad) / 2
	nonPadded := len(x.shape) - k
	shape, err := padOutShape(x.shape, pad)
	if err != nil {
		return nil, err
	}
	for i := 0; i < k; i++ {
		d := len(x.shape) - 1 - i
		if pad[2*i] > x.shape[d] || pad[2*i+1] > x.shape[d] {
			return nil, Errorf(RuntimeError, "Padding value causes wrapping around more than once.")
		}
	}
	out, err := rt.Factory("new_empty", shape, x.dtype, x.device, false)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*Tensor, error) {
		out.Release()
		return nil, err
	}
	slice := func(t *Tensor, d int, a, b int64) (*Tensor, error) {
		return rt.Slice(t, int64(d), a, b, 1, true, true)
	}
	copyInto := func(dst, src *Tensor) error {
		r, err := rt.CopyInplace(dst, src)
		if r != nil {
			r.Release()
		}
		return err
	}
	outSlice, inSlice := out.Retain(), x.Retain()
	for i := 0; i < k; i++ {
		d := k - i + nonPadded - 1
		l, r := pad[2*i], pad[2*i+1]
		o, err := slice(outSlice, d, max(l, 0), shape[d]-max(r, 0))
		outSlice.Release()
		outSlice = o
		if err != nil {
			inSlice.Release()
			return fail(err)
		}
		s, err := slice(inSlice, d, max(-l, 0), x.shape[d]-max(-r, 0))
		inSlice.Release()
		inSlice = s
		if err != nil {
			outSlice.Release()
			return fail(err)
		}
	}
	err = copyInto(outSlice, inSlice)
	outSlice.Release()
	inSlice.Release()
	if err != nil {
		return fail(err)
	}
	for i := 0; i < k; i++ {
		d := k - i + nonPadded - 1
		l, r := pad[2*i], pad[2*i+1]
		if l > 0 {
			if err := rt.circularCopy(out, d, 0, l, shape[d]-l-max(r, 0), shape[d]-max(r, 0)); err != nil {
				return fail(err)
			}
		}
		if r > 0 {
			if err := rt.circularCopy(out, d, shape[d]-r, shape[d], max(l, 0), max(l, 0)+r); err != nil {
				return fail(err)
			}
		}
	}
	return out, nil
}

// circularCopy is out.slice(d, a0, a1).copy_(out.slice(d, b0, b1)).
func (rt *Runtime) circularCopy(out *Tensor, d int, a0, a1, b0, b1 int64) error {
	dst, err := rt.Slice(out, int64(d), a0, a1, 1, true, true)
	if err != nil {
		return err
	}
	defer dst.Release()
	src, err := rt.Slice(out, int64(d), b0, b1, 1, true, true)
	if err != nil {
		return err
	}
	defer src.Release()
	r, err := rt.CopyInplace(dst, src)
	if r != nil {
		r.Release()
	}
	return err
}
