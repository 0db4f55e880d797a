package alloc

import "github.com/gpumem/playground/sim/trace"

// Block is a contiguous piece of a segment, free or handed to a caller
// (PyTorch's Block). Callers receive *Block from Malloc and give it back to
// Free; they may read it through the accessors but never change it. A Block
// handle is valid until it is freed; afterwards the allocator may hand the
// same object out again (PyTorch reuses a whole free block object as is).
type Block struct {
	// Hot fields first: with 128-byte objects (Go's size class, 128-byte
	// aligned) the fields malloc and free touch share one cache line.
	addr       uint64
	size       int64
	pool       *pool       // also identifies the owning allocator (Allocator.owns)
	prev, next *Block      // neighbours in the segment (address order)
	exp        *expSegment // non-nil: part of an expandable segment
	slot       int32       // index in Allocator.live while allocated
	allocated  bool
	mapped     bool  // backed by memory (always true outside expandable segments)
	dead       bool  // merged into a neighbour; the object is no longer part of any segment
	requested  int64 // requested_size: unrounded bytes of the last allocation that used this object (spec §5.3)

	segment uint64
	gcBase  int64 // get_free_blocks_call_count when the block was cached (GC age)
	label   trace.Label
}

// Addr returns the block's device address.
func (b *Block) Addr() uint64 { return b.addr }

// Size returns the block's size in bytes (the rounded, whole-block size that
// allocated_bytes counts).
func (b *Block) Size() int64 { return b.size }

// Requested returns the unrounded size of the allocation that last used the block.
func (b *Block) Requested() int64 { return b.requested }

// Segment returns the address of the segment holding the block; for
// expandable segments, the start of the reserved address range.
func (b *Block) Segment() uint64 { return b.segment }

// Pool returns the block's pool.
func (b *Block) Pool() trace.Pool {
	if b.pool != nil && b.pool.small {
		return trace.Small
	}
	return trace.Large
}

// Label returns what the memory is.
func (b *Block) Label() trace.Label { return b.label }

// isSplit reports whether the block shares its segment with other blocks.
func (b *Block) isSplit() bool { return b.prev != nil || b.next != nil }

// owns reports whether b is a block of a: its pool is one of a's.
func (a *Allocator) owns(b *Block) bool { return b.pool == &a.small || b.pool == &a.large }
