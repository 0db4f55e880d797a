package alloc

import (
	"strconv"
	"strings"

	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/trace"
)

// OOMError is a CUDA out-of-memory error (torch.OutOfMemoryError). Its
// fields are the parts of the message; Error returns str(e) exactly, in the
// profile's format.
type OOMError struct {
	Format     profile.OOMFormat
	OneEB      bool  // the request was ≥ 1 EiB ("Tried to allocate more than 1EB memory.")
	Device     int   // device index
	AllocSize  int64 // segment size the allocator tried to obtain ("Tried to allocate")
	Requested  int64 // the caller's request in bytes
	Rounded    int64 // the request rounded by round_size
	Total      int64 // cudaMemGetInfo total
	Free       int64 // cudaMemGetInfo free, after the cache flush
	HasProcess bool  // NVML process information is available
	Process    int64 // NVML usage of this process: reserved + context
	HasAllowed bool  // a memory fraction is in force
	Allowed    int64 // allowed_memory_maximum
	Allocated  int64 // allocated_bytes.all.current
	Reserved   int64 // reserved_bytes.all.current
	Private    int64 // free bytes in CUDA-graph private pools (always 0 here)
}

// Link texts of the OOM message.
const (
	oomLink211 = "https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf"
	oomLink21  = "https://pytorch.org/docs/stable/notes/cuda.html#environment-variables"
)

// Error returns the message as str(e) prints it (allocator spec §10).
func (e *OOMError) Error() string {
	if e.OneEB {
		return "CUDA out of memory. Tried to allocate more than 1EB memory."
	}
	var sb strings.Builder
	dev := strconv.Itoa(e.Device)
	switch e.Format {
	case profile.OOM110, profile.OOM19:
		sb.WriteString("CUDA out of memory. Tried to allocate " + FormatSize(e.AllocSize) + " (GPU " + dev + "; ")
		sb.WriteString(FormatSize(e.Total) + " total capacity; " + FormatSize(e.Allocated) + " already allocated; ")
		sb.WriteString(FormatSize(e.Free) + " free; ")
		if e.HasAllowed {
			sb.WriteString(FormatSize(e.Allowed) + " allowed; ")
		}
		sb.WriteString(FormatSize(e.Reserved) + " reserved in total by PyTorch)")
		if e.Format == profile.OOM110 {
			sb.WriteString(" If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF")
		}
		return sb.String()
	}
	sb.WriteString("CUDA out of memory. Tried to allocate " + FormatSize(e.AllocSize) + ". GPU " + dev)
	sb.WriteString(" has a total capacity of " + FormatSize(e.Total) + " of which " + FormatSize(e.Free) + " is free. ")
	if e.HasProcess {
		sb.WriteString("Including non-PyTorch memory, this process has " + FormatSize(e.Process) + " memory in use. ")
	}
	newer := e.Format == profile.OOM211 || e.Format == profile.OOM23
	private := int64(0)
	if newer {
		if e.HasAllowed {
			sb.WriteString(FormatSize(e.Allowed) + " allowed; ")
		}
		private = e.Private
	}
	sb.WriteString("Of the allocated memory " + FormatSize(e.Allocated+private) + " is allocated by PyTorch, ")
	if private > 0 {
		sb.WriteString("with " + FormatSize(private) + " allocated in private pools (e.g., CUDA Graphs), ")
	}
	sb.WriteString("and " + FormatSize(e.Reserved-e.Allocated-private) + " is reserved by PyTorch but unallocated.")
	sb.WriteString(" If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (")
	if e.Format == profile.OOM211 {
		sb.WriteString(oomLink211)
	} else {
		sb.WriteString(oomLink21)
	}
	sb.WriteString(")")
	return sb.String()
}

// FormatSize is the C++ format_size used in error messages (spec §10.1):
// "N bytes" up to 1 KiB, then KiB, MiB or GiB with two decimals.
func FormatSize(n int64) string {
	f := float64(n)
	switch {
	case n <= 1024:
		return strconv.FormatInt(n, 10) + " bytes"
	case n <= 1<<20:
		return strconv.FormatFloat(f/1024, 'f', 2, 64) + " KiB"
	case n <= 1<<30:
		return strconv.FormatFloat(f/(1<<20), 'f', 2, 64) + " MiB"
	}
	return strconv.FormatFloat(f/(1<<30), 'f', 2, 64) + " GiB"
}

// raiseOOM builds the error after the flush-and-retry chain failed, counts
// it and records it.
func (a *Allocator) raiseOOM(p *pool, orig, size, allocSize int64) error {
	free, total := a.dev.MemGetInfo()
	a.stats.NumOOMs++
	a.recordOOM(free, size)
	s := a.Stats()
	e := &OOMError{
		Format: a.prof.OOMFormat, AllocSize: allocSize, Requested: orig, Rounded: size,
		Total: total, Free: free,
		HasProcess: true, Process: s.Reserved + a.prof.ContextBytes,
		HasAllowed: a.fractionSet, Allowed: a.allowed,
		Allocated: s.Allocated, Reserved: s.Reserved,
	}
	if a.sink != nil {
		a.emit(trace.Event{Kind: trace.OOM, Size: size, Requested: orig, Pool: poolName(p), Text: e.Error()})
	}
	return e
}
