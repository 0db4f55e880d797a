package torch

import (
	"github.com/gpumem/playground/sim/trace"
)

// Config is what a Runtime needs from its surroundings.
type Config struct {
	// CuBLASWorkspace is the bytes of the workspace cuBLAS gets per (handle,
	// stream): one per host thread that runs GEMMs. 0: none is allocated.
	CuBLASWorkspace int64
	// CuBLASLtWorkspace is the separate cuBLASLt workspace that GEMMs with a
	// bias epilogue use (addmm, linear with bias); 0: none.
	CuBLASLtWorkspace int64
	// InitCUDA initialises CUDA (reads the allocator configuration) and
	// returns the allocator. It is called once, at the first CUDA
	// allocation or an explicit torch.cuda.init().
	InitCUDA func() (Memory, error)
	// Line returns the script line running now (for labels); may be nil.
	Line func() int
	// Executor computes tensor values (a GPU run); nil in the simulator,
	// where values are never computed.
	Executor Executor
	// SM is the simulated device's compute capability, major*10+minor (90
	// for an H100): scaled_dot_product_attention's backend choice depends
	// on it. 0 means sm90, the measured device.
	SM int
}

// thread identifies the host thread an operation runs on: PyTorch keeps one
// cuBLAS handle, hence one workspace, per thread.
type thread uint8

const (
	mainThread     thread = iota // the Python thread
	autogradThread               // the autograd engine's CUDA device thread
)

type wsKey struct {
	th thread
	lt bool
}

// Runtime is the per-run state of the model: grad mode, the allocator,
// workspaces, node sequence numbers, the module being run (for labels).
// It is not safe for concurrent use; each run has its own.
type Runtime struct {
	cfg        Config
	mem        Memory
	cudaErr    error
	gradMode   bool
	inference  bool
	th         thread
	seq        uint64
	nextID     uint64
	workspaces map[wsKey]Block
	wsOrder    []wsKey
	rnnDropout *Tensor // cuDNN RNN dropout state (rnn.go)
	// rnnDropReset is the CUDA generator's reset_rnn_state flag: set by a
	// reseed or a set state, it makes the next RNN dropout state anew
	rnnDropReset bool
	modules      []string // paths of the modules whose forward is running
	savedHooks   []SavedTensorHooks
	packErr      error      // a pack hook's error, raised when the op returns (TakeError)
	task         *graphTask // the running backward (nil outside the engine)
	evalNode     *Node      // the node whose backward function runs now
	autocast     autocastState
	detAddr      uint64
	bugs         []string
	exec         Executor // cfg.Executor: nil when values are not computed
	execErr      error    // the executor's first failure (not ErrNotComputed)
}

// NewRuntime makes the model's state for one run.
func NewRuntime(cfg Config) *Runtime {
	return &Runtime{cfg: cfg, gradMode: true, workspaces: map[wsKey]Block{}, detAddr: 0x7f3a_0000_0000, exec: cfg.Executor}
}

// CUDAInitialized reports whether CUDA has been initialised.
func (rt *Runtime) CUDAInitialized() bool { return rt.mem != nil }

// InitCUDA initialises CUDA if it is not yet (torch.cuda.init()).
func (rt *Runtime) InitCUDA() error {
	if rt.mem != nil {
		return nil
	}
	if rt.cudaErr != nil {
		return rt.cudaErr
	}
	if rt.cfg.InitCUDA == nil {
		rt.cudaErr = Errorf(RuntimeError, "Found no NVIDIA driver on your system.")
		return rt.cudaErr
	}
	m, err := rt.cfg.InitCUDA()
	if err != nil {
		rt.cudaErr = err
		return err
	}
	rt.mem = m
	return nil
}

// Memory returns the allocator (nil before CUDA is initialised).
func (rt *Runtime) Memory() Memory { return rt.mem }

// GradEnabled is torch.is_grad_enabled().
func (rt *Runtime) GradEnabled() bool { return rt.gradMode }

// SetGradEnabled sets grad mode and returns the previous one.
func (rt *Runtime) SetGradEnabled(on bool) bool {
	prev := rt.gradMode
	rt.gradMode = on
	return prev
}

// InferenceMode is torch.is_inference_mode_enabled().
func (rt *Runtime) InferenceMode() bool { return rt.inference }

// SetInferenceMode enters or leaves inference mode (which also disables
// grad mode) and returns the previous (inference, grad) pair.
func (rt *Runtime) SetInferenceMode(on bool) (prevInference, prevGrad bool) {
	prevInference, prevGrad = rt.inference, rt.gradMode
	rt.inference = on
	if on {
		rt.gradMode = false
	}
	return
}

// RestoreInferenceMode undoes SetInferenceMode.
func (rt *Runtime) RestoreInferenceMode(prevInference, prevGrad bool) {
	rt.inference, rt.gradMode = prevInference, prevGrad
}

// OnDeviceThread reports whether the autograd engine is running a CUDA
// node: PyTorch runs those on its device thread, so Python code they call
// (hooks, custom Functions, checkpoint recomputation) is not seen by a
// sys.settrace installed on the main thread.
func (rt *Runtime) OnDeviceThread() bool { return rt.th == autogradThread }

// PushModule records that the forward of the module at path starts (labels
// of the allocations inside name it); PopModule ends it.
func (rt *Runtime) PushModule(path string) { rt.modules = append(rt.modules, path) }

// PopModule ends the innermost module forward.
func (rt *Runtime) PopModule() {
	if len(rt.modules) > 0 {
		rt.modules = rt.modules[:len(rt.modules)-1]
	}
}

func (rt *Runtime) module() string {
	if len(rt.modules) == 0 {
		return ""
	}
	return rt.modules[len(rt.modules)-1]
}

func (rt *Runtime) line() int {
	if rt.cfg.Line == nil {
		return 0
	}
	return rt.cfg.Line()
}

// nextSeq is at::sequence_number::get_and_increment.
func (rt *Runtime) nextSeq() uint64 {
	s := rt.seq
	rt.seq++
	return s
}

// FakeAddress gives deterministic addresses for reprs such as
// <AddmmBackward0 object at 0x7f3a00000040>.
func (rt *Runtime) FakeAddress() uint64 {
	rt.detAddr += 0x40
	return rt.detAddr
}

// malloc allocates GPU memory through the caching allocator, initialising
// CUDA first if needed.
func (rt *Runtime) malloc(size int64, label trace.Label) (Block, error) {
	if err := rt.InitCUDA(); err != nil {
		return nil, err
	}
	b, err := rt.mem.Malloc(size, label)
	if err != nil {
		return nil, oomError(err)
	}
	return b, nil
}

func (rt *Runtime) free(b Block) {
	if b == nil || rt.mem == nil {
		return
	}
	_ = rt.mem.Free(b) // a failure here is an internal inconsistency; the allocator reports it
}

// workspace makes sure the current thread's cuBLAS (lt=false) or cuBLASLt
// (lt=true) workspace exists, allocating it on first use as
// at::cuda::getCurrentCUDABlasHandle / getCUDABlasLtWorkspace do.
func (rt *Runtime) workspace(lt bool) error {
	size := rt.cfg.CuBLASWorkspace
	name := "cuBLAS workspace"
	if lt {
		size = rt.cfg.CuBLASLtWorkspace
		name = "cuBLASLt workspace"
	}
	if size <= 0 {
		return nil
	}
	k := wsKey{rt.th, lt}
	if _, ok := rt.workspaces[k]; ok {
		return nil
	}
	th := "forward thread"
	if rt.th == autogradThread {
		th = "autograd thread"
	}
	b, err := rt.malloc(size, trace.Label{Kind: trace.LabelWorkspace, Name: name + " (" + th + ")",
		Detail: name + " of the " + th + "'s handle, kept until torch._C._cuda_clearCublasWorkspaces()"})
	if err != nil {
		return err
	}
	rt.workspaces[k] = b
	rt.wsOrder = append(rt.wsOrder, k)
	return nil
}

// ClearCublasWorkspaces is torch._C._cuda_clearCublasWorkspaces(): every
// workspace returns to the cache.
func (rt *Runtime) ClearCublasWorkspaces() {
	for _, k := range rt.wsOrder {
		if b, ok := rt.workspaces[k]; ok {
			rt.free(b)
			delete(rt.workspaces, k)
		}
	}
	rt.wsOrder = rt.wsOrder[:0]
}

// bug records an internal inconsistency (a reference released too often)
// instead of crashing the host; tests assert there are none.
func (rt *Runtime) bug(msg string) {
	if len(rt.bugs) < 100 {
		rt.bugs = append(rt.bugs, msg)
	}
}

// Bugs lists internal inconsistencies seen so far (empty in a correct run).
func (rt *Runtime) Bugs() []string { return rt.bugs }
