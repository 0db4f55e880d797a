package gpuexec

// vectorOperands views the operands of a dot product (1-d · 1-d into a
// 0-d result) as a [1, k] · [k, 1] matrix product into [1, 1]; other
// operands are returned as they are. float64 products run the f64 bmm of
// module linalg_f64 (the launchers pick the kernel by type); wideKernels
// lets ExecMatmul, softmax and nll_loss reach them with float64 operands.
func vectorOperands(a, b, out operand) (operand, operand, operand) {
	if len(a.shape) != 1 || len(b.shape) != 1 || len(out.shape) != 0 {
		return a, b, out
	}
	a.shape, a.strides = []int64{1, a.shape[0]}, []int64{0, a.strides[0]}
	b.shape, b.strides = []int64{b.shape[0], 1}, []int64{b.strides[0], 0}
	out.shape, out.strides = []int64{1, 1}, []int64{0, 0}
	return a, b, out
}
