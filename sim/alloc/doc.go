// Package alloc is an exact re-implementation of PyTorch 2.11's CUDA caching
// allocator (c10/cuda/CUDACachingAllocator.cpp) for single-device,
// single-stream programs, as specified in shared/docs/allocator-spec.md.
//
// An Allocator reproduces, byte for byte, what PyTorch reports: the values of
// memory_allocated/memory_reserved and their peaks, every key of
// memory_stats() (MemoryStats), the text of memory_summary() (Summary), the
// segment/block layout of memory_snapshot() and the _snapshot() dict with its
// history trace (Snapshot, PickleValue), and the out-of-memory error message
// in the format of the profile's PyTorch version (OOMError). The rules are
// those of the spec: 512-byte rounding with roundup_power2_divisions, small
// and large pools with best-fit free sets ordered by (size, address),
// splitting and merging, oversize blocks (max_split_size_mb,
// max_non_split_rounding_mb), release of cached blocks and retry before an
// OOM, garbage_collection_threshold with block ages, the memory fraction
// (2.11 and pre-2.5 semantics, chosen by the profile), and expandable
// segments.
//
// The allocator sits on a Device. SimDevice simulates one from a
// profile.Profile: capacity TotalMemory, minus DriverUsedAtInit for the CUDA
// context, minus what the allocator holds, is free memory and decides whether
// a cudaMalloc succeeds. The real GPU backend implements Device with the CUDA
// driver API.
//
// # Address model
//
// Real cudaMalloc addresses are chosen by the driver and are not predictable
// from PyTorch's state (spec §15). SimDevice therefore invents them,
// deterministically: inside the profile's address window, each new segment
// (and each expandable segment's address reservation) takes the highest free
// slot that is a power of two at least as large as the request (minimum
// 2 MiB) and aligned to its own size, and occupies the start of that slot. New
// large segments thus appear at decreasing addresses, and small segments fill
// the unused tails of earlier slots from the top down, which resembles what
// the H100 showed. Two consequences are known differences from real runs:
// the order of segments in a snapshot, and which of several equal-size free
// blocks in different segments a request takes (the lowest address wins, in
// PyTorch and here, but the addresses differ).
//
// # Events
//
// Every action is reported to the sink given to New as a trace.Event
// (segment_alloc/free, segment_map/unmap, alloc, free, oom, relabel) with the
// headline figures after it; with a nil sink no event is built. The PyTorch
// memory-history ring buffer (RecordHistory) is kept separately, in PyTorch's
// own vocabulary (free_requested/free_completed, snapshot).
package alloc
