package gputest

import (
	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
)

// noKernels is the fake device's gpu.Kernels: every launch fails with
// ErrNoKernels, so a test that needs real kernels cannot pass by accident.
type noKernels struct{}

func (noKernels) Fill(gpu.DType, uint64, float32, int64) error           { return ErrNoKernels }
func (noKernels) Copy(gpu.DType, uint64, uint64, int64) error            { return ErrNoKernels }
func (noKernels) Cast(gpu.DType, gpu.DType, uint64, uint64, int64) error { return ErrNoKernels }
func (noKernels) Add(gpu.DType, uint64, uint64, uint64, int64) error     { return ErrNoKernels }
func (noKernels) Sub(gpu.DType, uint64, uint64, uint64, int64) error     { return ErrNoKernels }
func (noKernels) Mul(gpu.DType, uint64, uint64, uint64, int64) error     { return ErrNoKernels }
func (noKernels) Div(gpu.DType, uint64, uint64, uint64, int64) error     { return ErrNoKernels }
func (noKernels) Relu(gpu.DType, uint64, uint64, int64) error            { return ErrNoKernels }
func (noKernels) Exp(gpu.DType, uint64, uint64, int64) error             { return ErrNoKernels }
func (noKernels) Sigmoid(gpu.DType, uint64, uint64, int64) error         { return ErrNoKernels }
func (noKernels) Tanh(gpu.DType, uint64, uint64, int64) error            { return ErrNoKernels }
func (noKernels) ReluBackward(gpu.DType, uint64, uint64, uint64, int64) error {
	return ErrNoKernels
}
func (noKernels) Scale(gpu.DType, uint64, uint64, float32, int64) error { return ErrNoKernels }
func (noKernels) Axpy(gpu.DType, uint64, uint64, float32, int64) error  { return ErrNoKernels }
func (noKernels) Sum(gpu.DType, uint64, uint64, int64) error            { return ErrNoKernels }
func (noKernels) Matmul(gpu.DType, uint64, uint64, uint64, int64, int64, int64, [2]int64, [2]int64) error {
	return ErrNoKernels
}
func (noKernels) Map(kernels.MapOp, gpu.DType, gpu.DType, gpu.Shape, gpu.Strided, []gpu.Strided, float64, float64) error {
	return ErrNoKernels
}
func (noKernels) Random(kernels.RandKind, gpu.DType, uint64, int64, uint64, uint64, float32, float32) error {
	return ErrNoKernels
}
func (noKernels) RandInt(uint64, int64, uint64, uint64, int64, int64) error { return ErrNoKernels }
func (noKernels) Philox(kernels.PhiloxKind, gpu.DType, uint64, int64, kernels.PhiloxArgs) error {
	return ErrNoKernels
}
func (noKernels) SMGeometry() (int64, int64, error) { return 0, 0, ErrNoKernels }
func (noKernels) ReduceRows(gpu.DType, uint64, uint64, float64, gpu.Rows) error {
	return ErrNoKernels
}
func (noKernels) Softmax(kernels.SoftmaxMode, gpu.DType, uint64, uint64, uint64, int64, int64, int64, gpu.Strides3, gpu.Strides3, gpu.Strides3) error {
	return ErrNoKernels
}
func (noKernels) NLLLoss(bool, gpu.DType, uint64, uint64, uint64, int64, int64, int64, int64, int64, bool) error {
	return ErrNoKernels
}
func (noKernels) BatchedMatmul(gpu.DType, uint64, uint64, uint64, int64, int64, int64, int64, gpu.Strides3, gpu.Strides3, gpu.Strides3) error {
	return ErrNoKernels
}
func (noKernels) Pick(kernels.PickMode, gpu.DType, uint64, uint64, uint64, gpu.Rows) error {
	return ErrNoKernels
}
func (noKernels) Index(kernels.IndexMode, gpu.DType, gpu.Shape, gpu.Strided, gpu.Strided, gpu.Strided, int64, int64, int64) error {
	return ErrNoKernels
}
