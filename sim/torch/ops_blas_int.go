package torch

// Integer and bool operands of the matrix products and of softmax on CUDA:
// PyTorch 2.11 allocates the output, then its kernel's dtype dispatch has
// no integer case and raises NotImplementedError (recorded on an H200,
// gpu/testdata/h200-values-ints2.txt): mm, addmm, linear and matmul of
// 2-d or folded operands in "addmm_cuda", bmm and batched matmul in
// "baddbmm_cuda", 1-d·1-d in "dot", matrix·vector in "addmv_impl_cuda",
// softmax and log_softmax in "host_softmax". CPU tensors multiply.

// intKernelErr is the dispatch error of kernel for dtype dt on CUDA; nil
// for a floating dtype or a CPU tensor.
func intKernelErr(kernel string, dt DType, dev Device) error {
	if !dev.IsCUDA() || !dt.IsIntegral(true) {
		return nil
	}
	return Errorf(NotImplementedError, "\"%s\" not implemented for '%s'", kernel, dt.cppName())
}

// gemmKernel names the CUDA kernel whose dispatch a GEMM op reaches.
func gemmKernel(op string) string {
	switch op {
	case "bmm":
		return "baddbmm_cuda"
	case "dot":
		return "dot"
	case "mv":
		return "addmv_impl_cuda"
	}
	return "addmm_cuda"
}

// mvIntErr is matmul(matrix, vector) of integers on CUDA: at::mv's output
// [m] is allocated, then addmv's dispatch fails.
func (rt *Runtime) mvIntErr(a, b *Tensor) error {
	if err := intKernelErr("addmv_impl_cuda", a.dtype, a.device); err == nil || a.dtype != b.dtype || len(a.shape) != 2 || a.shape[1] != b.shape[0] {
		return nil
	}
	out, err := rt.empty("mv", a.shape[:1], nil, a.dtype, a.device)
	if err != nil {
		return err
	}
	out.Release()
	return intKernelErr("addmv_impl_cuda", a.dtype, a.device)
}

// typeMetaName is the dtype as caffe2::TypeMeta prints it in messages
// ("long int", "float"): what at::cuda's addmm check shows.
func typeMetaName(d DType) string {
	switch d {
	case Float32:
		return "float"
	case Float64:
		return "double"
	case Float16:
		return "c10::Half"
	case BFloat16:
		return "c10::BFloat16"
	case Int64:
		return "long int"
	case Int32:
		return "int"
	case Int16:
		return "short int"
	case Int8:
		return "signed char"
	case Uint8:
		return "unsigned char"
	case Bool:
		return "bool"
	}
	return d.Name()
}
