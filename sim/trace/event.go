// Package trace defines the one event stream that every producer (the simulated
// allocator, the real-GPU backend) emits and every view (browser, CLI, reports)
// consumes. See README.md in this folder for the written description.
//
// The package holds data types only: it has no dependencies, so that the
// allocator, the interpreter, the GPU backend and the web views can all share it.
package trace

// Kind says what happened. The allocator kinds mirror the `action` values of
// PyTorch's memory-history trace (torch.cuda.memory._snapshot()["device_traces"]),
// so a stream can be turned into a memory_viz trace without translation.
type Kind string

// Allocator event kinds.
const (
	SegmentAlloc Kind = "segment_alloc" // cudaMalloc of a new segment
	SegmentFree  Kind = "segment_free"  // cudaFree of a whole segment
	SegmentMap   Kind = "segment_map"   // expandable segments: pages mapped
	SegmentUnmap Kind = "segment_unmap" // expandable segments: pages unmapped
	Alloc        Kind = "alloc"         // a block handed to a tensor
	Free         Kind = "free"          // a block returned by a tensor (free_requested+free_completed)
	OOM          Kind = "oom"           // an allocation failed; an OutOfMemoryError follows
	Relabel      Kind = "relabel"       // a live block got a better name (e.g. the variable it was bound to)
)

// Script event kinds: they place allocator events in the script.
const (
	Line   Kind = "line"   // the interpreter is about to run source line Event.Line
	Output Kind = "output" // the script wrote Event.Text to standard output
	Error  Kind = "error"  // an exception escaped the script; Event.Text is the traceback
	End    Kind = "end"    // the script ended and its globals were released
)

// Pool is the allocator pool of a block or segment.
type Pool string

// Pools of the caching allocator.
const (
	Small Pool = "small"
	Large Pool = "large"
)

// Event is one thing that happened during a run. Fields that do not apply to a
// kind are zero. Stats are always the allocator's figures right after the event.
type Event struct {
	Seq  int  `json:"seq"`  // position in the stream, from 0
	Kind Kind `json:"kind"` // what happened
	Line int  `json:"line"` // source line running when it happened (0: outside the script)

	Addr      uint64 `json:"addr,omitempty"`      // block address (alloc/free/relabel) or range start (segment_*)
	Size      int64  `json:"size,omitempty"`      // block size (rounded, whole block) or segment/range size
	Requested int64  `json:"requested,omitempty"` // bytes the caller asked for (unrounded)
	Segment   uint64 `json:"segment,omitempty"`   // address of the segment holding the block
	Pool      Pool   `json:"pool,omitempty"`      // small or large
	Label     *Label `json:"label,omitempty"`     // what the memory is (alloc, relabel; free repeats it)

	Text string `json:"text,omitempty"` // output text, error traceback, or OOM message

	Stats Stats `json:"stats"` // allocator figures after the event

	GPU *GPU `json:"gpu,omitempty"` // figures only a real GPU has; nil from the simulator
}

// Stats are the allocator's headline figures, the ones every view draws. The
// full memory_stats() dictionary is available from the allocator on demand.
type Stats struct {
	Allocated     int64 `json:"allocated"`      // allocated_bytes.all.current
	Reserved      int64 `json:"reserved"`       // reserved_bytes.all.current
	PeakAllocated int64 `json:"peak_allocated"` // allocated_bytes.all.peak
	PeakReserved  int64 `json:"peak_reserved"`  // reserved_bytes.all.peak
	Active        int64 `json:"active"`         // active_bytes.all.current
	Requested     int64 `json:"requested"`      // requested_bytes.all.current
	Segments      int64 `json:"segments"`       // segment.all.current
	AllocRetries  int64 `json:"alloc_retries"`  // num_alloc_retries
	OOMs          int64 `json:"ooms"`           // num_ooms
}

// LabelKind classifies why memory exists: the lesson of the playground.
type LabelKind string

// Label kinds.
const (
	LabelUser       LabelKind = "user"       // a tensor the script made (Name: variable, if bound)
	LabelParameter  LabelKind = "parameter"  // a module parameter (Name: "fc1.weight")
	LabelBuffer     LabelKind = "buffer"     // a module buffer (Name: "bn.running_mean")
	LabelGradient   LabelKind = "gradient"   // a .grad (Name: parameter or tensor it belongs to)
	LabelOptimizer  LabelKind = "optimizer"  // optimizer state (Name: "exp_avg of fc1.weight")
	LabelSaved      LabelKind = "saved"      // saved for backward (Name: op, Detail: module)
	LabelActivation LabelKind = "activation" // an op's output inside a module's forward
	LabelTemporary  LabelKind = "temporary"  // freed within the op or statement that made it
	LabelWorkspace  LabelKind = "workspace"  // cuBLAS / cuBLASLt / cuDNN workspace
	LabelOther      LabelKind = "other"
)

// Label names one allocation. Name is short ("fc1.weight"); Detail is a
// sentence for hover text ("saved by ReLU in layers.1 for backward").
type Label struct {
	Kind   LabelKind `json:"kind"`
	Name   string    `json:"name,omitempty"`
	Detail string    `json:"detail,omitempty"`
}

// GPU holds the figures that only a run on a real device has.
type GPU struct {
	DriverUsed   int64 `json:"driver_used"`   // total − free from cuMemGetInfo (includes the CUDA context)
	ElapsedNanos int64 `json:"elapsed_ns"`    // time spent since the previous event (CUDA events for kernels)
	DeviceAllocs int64 `json:"device_allocs"` // cuMemAlloc/map calls so far
	DeviceFrees  int64 `json:"device_frees"`  // cuMemFree/unmap calls so far
	DeviceNanos  int64 `json:"device_ns"`     // time spent in those calls so far
}
