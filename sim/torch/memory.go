package torch

import "github.com/gpumem/playground/sim/trace"

// Block is an allocator's handle for one allocation (an *alloc.Block for the
// simulated caching allocator).
type Block any

// Memory is the CUDA caching allocator as the model uses it: every tensor
// storage on the GPU and every workspace is one Malloc, released by one
// Free. Malloc of 0 bytes is never called.
type Memory interface {
	Malloc(size int64, label trace.Label) (Block, error)
	Free(b Block) error
	Relabel(b Block, label trace.Label)
}
