package pybind

import (
	"strings"

	"github.com/gpumem/playground/sim/alloc"
	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// Host is the binding's per-run state: the model's runtime, the
// interpreter, the device profile and the dtype objects of this run.
type Host struct {
	it      *py.Interp
	rt      *torch.Runtime
	prof    profile.Profile
	dtypes  map[torch.DType]*DTypeObj
	nodes   map[string]*py.Class // grad_fn classes by name
	rng     rngSeeds             // the generators' initial seeds (rng.go)
	history bool                 // _record_memory_history enabled
}

// New makes the binding for one run. rt's Config.InitCUDA must build an
// alloc.Allocator wrapped in torch.AllocMemory.
func New(rt *torch.Runtime, prof profile.Profile) *Host {
	return &Host{rt: rt, prof: prof, dtypes: map[torch.DType]*DTypeObj{}, nodes: map[string]*py.Class{}}
}

// Runtime is the model the binding drives.
func (h *Host) Runtime() *torch.Runtime { return h.rt }

// Register installs the Go modules in it. Call once, before the script runs.
func (h *Host) Register(it *py.Interp) {
	h.it = it
	hosts.Store(it, h)
	it.RegisterModule("torch", h.buildTorch)
	it.RegisterModule("torch.cuda", h.buildCUDA)
	it.RegisterModule("torch.cuda.memory", h.buildCUDAMemory)
	it.RegisterModule("torch.autograd", h.buildAutograd)
	it.RegisterModule("torch.autograd.graph", h.buildAutogradGraph)
	it.RegisterModule("torch.nn.functional", h.buildFunctional)
	it.RegisterModule("torch.linalg", h.buildLinalg)
	it.RegisterModule("torch._C", h.buildC)
	it.RegisterModule("torch._sim", h.buildSim)
}

// Close forgets the interpreter (call when the run ends).
func (h *Host) Close() { hosts.Delete(h.it) }

// Allocator initialises CUDA if needed and returns the caching allocator.
func (h *Host) Allocator() (*alloc.Allocator, error) {
	if err := h.rt.InitCUDA(); err != nil {
		return nil, pyErr(err)
	}
	m, ok := h.rt.Memory().(torch.AllocMemory)
	if !ok {
		return nil, runtimeErr("internal: the CUDA memory is not the simulated caching allocator")
	}
	return m.A, nil
}

// Traced reports whether Python code running now is on the main thread, so
// that its line events are recorded: false while the autograd engine runs a
// CUDA node (PyTorch's device thread, which sys.settrace does not follow).
func (h *Host) Traced() bool { return !h.rt.OnDeviceThread() }

// OnBind names a user tensor after the first script variable bound to it.
func (h *Host) OnBind(name string, v py.Value) {
	x, ok := v.(*Tensor)
	if !ok || x.t == nil {
		return
	}
	t := x.t
	if t.Name() != "" || t.IsParameter() {
		return
	}
	l := t.Label()
	if l.Kind != "user" || !strings.HasPrefix(l.Name, "tensor") {
		return // not a fresh user tensor (a view of a named one, an activation, ...)
	}
	t.SetName(name, "user", "tensor "+name+" of the script")
}
