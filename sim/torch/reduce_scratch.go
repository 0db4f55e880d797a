package torch

import (
	"sort"

	"github.com/gpumem/playground/sim/trace"
)

// Reduction scratch: ATen's gpu_reduce_kernel (aten/src/ATen/native/cuda/
// Reduce.cuh) splits a long reduction across thread blocks when each
// thread would otherwise sum many values; the blocks then combine through
// a global staging buffer (config.global_memory_size()) and a semaphore
// array (config.semaphore_size()), both taken from the caching allocator
// after the output and freed (semaphores first) when the kernel is queued.
// setReduceConfig is reproduced below for a single-input reduction, with
// the H100's 132 SMs and 2048 threads per SM (see the measurements in
// testdata/questions/q2_reduce_scratch.out).

const (
	reduceMaxThreads    = 512
	reduceMinValsPerThr = 16
	reduceMaxValsPerThr = 256
	reduceInputVecSize  = 4
	h100SMs             = 132
	h100MaxThreadsPerSM = 2048
	reduceWarpSize      = 32
)

// reduceScratch returns (global buffer bytes, semaphore bytes) of a
// reduction of t over the dims marked in red, accumulating in accSize-byte
// values.
func reduceScratch(t *Tensor, red []bool, accSize int64) (int64, int64) {
	if t.Numel() == 0 {
		return 0, 0
	}
	es := t.dtype.Size()
	// TensorIterator's dims, fastest first: reduced dims (output stride 0)
	// first, each group by ascending input stride; size-1 dims dropped.
	type dim struct {
		size, stride int64
		red          bool
	}
	var ds []dim
	for i, s := range t.shape {
		if s == 1 {
			continue
		}
		ds = append(ds, dim{s, t.strides[i], red[i]})
	}
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].red != ds[j].red {
			return ds[i].red
		}
		return ds[i].stride < ds[j].stride
	})
	// coalesce neighbours that are contiguous for the input (and of the
	// same kind, so the output's strides agree too)
	var co []dim
	for _, d := range ds {
		if n := len(co); n > 0 && co[n-1].red == d.red && co[n-1].size*co[n-1].stride == d.stride {
			co[n-1].size *= d.size
			continue
		}
		co = append(co, d)
	}
	numOutputs, numel := int64(1), t.Numel()
	nred := 0
	for _, d := range co {
		if d.red {
			nred++
		} else {
			numOutputs *= d.size
		}
	}
	inputsPerOutput := numel / numOutputs
	var dim0, dim1, fastest int64
	onFastest := true
	if len(co) > 0 {
		onFastest = nred == len(co) || (nred > 0 && co[0].stride < co[nred].stride)
		if nred == 0 {
			onFastest = false
		}
		if onFastest {
			dim0, dim1, fastest = inputsPerOutput, numOutputs, co[0].stride*es
		} else {
			dim0, dim1 = numOutputs, inputsPerOutput
			fastest = co[nred].stride * es
		}
	} else {
		dim0, dim1, fastest = 1, 1, es
	}
	outVec := int64(1)
	if fastest == es {
		if onFastest && dim0 >= 128 && nred == 1 {
			dim0 /= reduceInputVecSize
		} else if !onFastest {
			outVec = 4
			upd := func(n int64) {
				for n%outVec != 0 {
					outVec /= 2
				}
			}
			upd(t.offset)
			upd(co[nred].size)
			for i, d := range co {
				if i != nred {
					upd(d.stride)
				}
			}
			dim0 /= outVec
		}
	}
	maxThreads := reduceMaxThreads / outVec
	if t.dtype == Complex128 {
		maxThreads = 256 / outVec
	}
	pow2 := func(d int64) int64 {
		if d < maxThreads {
			return lastPow2(d)
		}
		return maxThreads
	}
	d0, d1 := pow2(dim0), pow2(dim1)
	bw := min(d0, reduceWarpSize)
	bh := min(d1, maxThreads/bw)
	bw = min(d0, maxThreads/bh)
	threads := bw * bh
	stepIn, stepOut := int64(1), int64(1)
	var inMult [3]int64
	blockX := false
	if len(co) == 0 || onFastest {
		inMult[0] = stepIn
		stepIn *= bw
		blockX = true
	} else {
		stepOut *= bw
	}
	vpt := func() int64 { return divUp(inputsPerOutput, stepIn) }
	if vpt() >= min(bh*16, reduceMaxValsPerThr) {
		inMult[1] = stepIn
		stepIn *= bh
	} else {
		stepOut *= bh
	}
	target := int64(h100SMs) * (h100MaxThreadsPerSM / threads)
	grid := divUp(numOutputs/outVec, stepOut)
	ctas := int64(1)
	if inMult[1] != 0 && vpt() >= reduceMaxValsPerThr && grid <= target {
		c1 := divUp(target, grid)
		c2 := divUp(vpt(), reduceMinValsPerThr)
		c3 := divUp(vpt(), reduceMaxValsPerThr)
		ctas = max(min(c1, c2), c3)
	}
	if ctas <= 1 {
		return 0, 0
	}
	buf := accSize * numOutputs * ctas
	if !blockX {
		buf *= bw * outVec
	}
	return buf, 4 * grid
}

func lastPow2(n int64) int64 {
	n |= n >> 1
	n |= n >> 2
	n |= n >> 4
	n |= n >> 8
	n |= n >> 16
	return max(1, n-(n>>1))
}

func divUp(a, b int64) int64 { return (a + b - 1) / b }

// accSize is sizeof(arg_t) of a plain reduction (sum, mean, max): the
// opmath type of the input.
func accSize(dt DType) int64 {
	switch {
	case dt == Float16 || dt == BFloat16 || dt == Float32:
		return 4
	case dt.IsIntegral(true):
		return 8 // integer sums accumulate in int64
	}
	return dt.Size()
}

// reduceKernel allocates and frees a reduction's scratch on the GPU, as
// gpu_reduce_kernel does after the output exists.
func (rt *Runtime) reduceKernel(t *Tensor, dims []int64, acc int64) error {
	if !t.device.IsCUDA() {
		return nil
	}
	_, red, err := reduceShape(t.shape, dims, false)
	if err != nil {
		return err
	}
	buf, sem := reduceScratch(t, red, acc)
	if buf == 0 {
		return nil
	}
	l := trace.Label{Kind: trace.LabelTemporary, Name: "reduction scratch", Detail: "gpu_reduce_kernel's staging buffer between thread blocks"}
	b1, err := rt.malloc(buf, l)
	if err != nil {
		return err
	}
	b2, err := rt.malloc(sem, trace.Label{Kind: trace.LabelTemporary, Name: "reduction semaphores", Detail: "gpu_reduce_kernel's per-output block counters"})
	if err != nil {
		rt.free(b1)
		return err
	}
	rt.free(b2)
	rt.free(b1)
	return nil
}
