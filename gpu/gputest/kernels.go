package gputest

import "github.com/gpumem/playground/gpu"

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
