package torch

import "fmt"

// F.unfold / F.fold (im2col / col2im on CUDA, PyTorch 2.11). Both kernels
// start from at::empty_like(input) (contiguous), copy the input contiguous
// if it is not, then resize_ the output to its real shape: a larger shape
// reallocates the storage (new block, old freed), a smaller one keeps the
// input-sized block. So unfold with overlapping windows allocates an
// input-sized block, then the column tensor, then frees the first; fold's
// output lives in a block of its input's (the columns') size. Measured in
// q22 (unfold/fold items). Im2ColBackward0 is col2im of the gradient and
// Col2ImBackward0 im2col of it; neither saves a tensor.

// UnfoldArgs are the window of F.unfold / F.fold.
type UnfoldArgs struct {
	Kernel, Dilation, Padding, Stride [2]int64
}

// blocks is the number of sliding blocks along each spatial dimension of
// an input of size hw.
func (a UnfoldArgs) blocks(hw [2]int64) [2]int64 {
	var b [2]int64
	for i := 0; i < 2; i++ {
		b[i] = (hw[i]+2*a.Padding[i]-(a.Dilation[i]*(a.Kernel[i]-1)+1))/a.Stride[i] + 1
	}
	return b
}

// check is the window part of im2col/col2im_shape_check.
func (a UnfoldArgs) check() error {
	k, d, p, s := a.Kernel, a.Dilation, a.Padding, a.Stride
	switch {
	case k[0] <= 0 || k[1] <= 0:
		return Errorf(RuntimeError, "kernel size should be greater than zero, but got kernel_height: %d kernel_width: %d", k[0], k[1])
	case s[0] <= 0 || s[1] <= 0:
		return Errorf(RuntimeError, "stride should be greater than zero, but got dH: %d dW: %d", s[0], s[1])
	case d[0] <= 0 || d[1] <= 0:
		return Errorf(RuntimeError, "dilation should be greater than zero, but got dilation_height: %d dilation_width: %d", d[0], d[1])
	case p[0] < 0 || p[1] < 0:
		return Errorf(RuntimeError, "padding should be non-negative, but got pad_height: %d pad_width: %d", p[0], p[1])
	}
	return nil
}

// pairStr formats a pair as PyTorch's error messages do: (a, b).
func pairStr(p [2]int64) string {
	return fmt.Sprintf("(%d, %d)", p[0], p[1])
}

// Im2col is F.unfold(x, ...) (im2col): [N, C*kh*kw, L] from [N, C, H, W]
// (or [C*kh*kw, L] from [C, H, W]).
func (rt *Runtime) Im2col(x *Tensor, a UnfoldArgs) (*Tensor, error) {
	if err := a.check(); err != nil {
		return nil, err
	}
	nd := x.Dim()
	valid := nd == 3 || nd == 4
	for i := nd - 3; valid && i < nd; i++ {
		valid = x.shape[i] > 0
	}
	if !valid {
		return nil, Errorf(RuntimeError, "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: %s", shapeList(x.shape))
	}
	hw := [2]int64{x.shape[nd-2], x.shape[nd-1]}
	b := a.blocks(hw)
	if b[0] < 1 || b[1] < 1 {
		return nil, Errorf(RuntimeError, "Given input with spatial size %s, kernel_size=%s, dilation=%s, padding=%s, calculated shape of the array of sliding blocks as %s, but its components must be at least one.",
			pairStr(hw), pairStr(a.Kernel), pairStr(a.Dilation), pairStr(a.Padding), pairStr(b))
	}
	planes := x.shape[nd-3] * a.Kernel[0] * a.Kernel[1]
	shape := []int64{planes, b[0] * b[1]}
	if nd == 4 {
		shape = append([]int64{x.shape[0]}, shape...)
	}
	out, err := rt.resizedKernelOut("im2col", x, shape)
	if err != nil {
		return nil, err
	}
	n := rt.record("Im2ColBackward0", x)
	n.finish(func(_ *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.Col2im(g[0], hw, a)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// Col2im is F.fold(x, output_size, ...) (col2im): [N, C, H, W] from
// [N, C*kh*kw, L] (or [C, H, W] from [C*kh*kw, L]).
func (rt *Runtime) Col2im(x *Tensor, size [2]int64, a UnfoldArgs) (*Tensor, error) {
	if err := a.check(); err != nil {
		return nil, err
	}
	if size[0] <= 0 || size[1] <= 0 {
		return nil, Errorf(RuntimeError, "Expected output spatial size to be positive, but got: output_size=%s", pairStr(size))
	}
	nd := x.Dim()
	valid := nd == 2 || nd == 3
	for i := nd - 2; valid && i < nd; i++ {
		valid = x.shape[i] > 0
	}
	if !valid {
		return nil, Errorf(RuntimeError, "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, but got: %s", shapeList(x.shape))
	}
	planes, length := x.shape[nd-2], x.shape[nd-1]
	kk := a.Kernel[0] * a.Kernel[1]
	if planes%kk != 0 {
		return nil, Errorf(RuntimeError, "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)=%d and kernel_size=%s.", planes, pairStr(a.Kernel))
	}
	b := a.blocks(size)
	if b[0] < 1 || b[1] < 1 || b[0]*b[1] != length {
		return nil, Errorf(RuntimeError, "Given output_size=%s, kernel_size=%s, dilation=%s, padding=%s, stride=%s, expected size of input's dimension 2 to match the calculated number of sliding blocks %d * %d = %d, but got input.size(2)=%d.",
			pairStr(size), pairStr(a.Kernel), pairStr(a.Dilation), pairStr(a.Padding), pairStr(a.Stride), b[0], b[1], b[0]*b[1], length)
	}
	shape := []int64{planes / kk, size[0], size[1]}
	if nd == 3 {
		shape = append([]int64{x.shape[0]}, shape...)
	}
	out, err := rt.resizedKernelOut("col2im", x, shape)
	if err != nil {
		return nil, err
	}
	n := rt.record("Col2ImBackward0", x)
	n.finish(func(_ *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.Im2col(g[0], a)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// resizedKernelOut is the im2col/col2im output: empty_like(x) (contiguous),
// x's contiguous copy for the kernel, then the output resized to shape —
// reallocated when it grows (the new block before the old one's free).
func (rt *Runtime) resizedKernelOut(op string, x *Tensor, shape []int64) (*Tensor, error) {
	out, err := rt.empty(op, x.shape, nil, x.dtype, x.device)
	if err != nil {
		return nil, err
	}
	src, err := rt.contiguousInput(x)
	if err != nil {
		out.Release()
		return nil, err
	}
	defer src.Release()
	need := numel(shape) * x.dtype.Size()
	if need <= out.storage.nbytes {
		out.storage.retain()
		r := rt.newTensorOn(out.storage, cloneShape(shape), contiguousStrides(shape), 0, x.dtype)
		out.Release()
		return r, nil
	}
	r, err := rt.empty(op, shape, nil, x.dtype, x.device)
	out.Release()
	return r, err
}
