package torch

import (
	"github.com/gpumem/playground/sim/alloc"
	"github.com/gpumem/playground/sim/trace"
)

// AllocMemory adapts the simulated caching allocator to Memory.
type AllocMemory struct{ A *alloc.Allocator }

// Malloc allocates through the caching allocator.
func (m AllocMemory) Malloc(size int64, label trace.Label) (Block, error) {
	b, err := m.A.Malloc(size, label)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// Free returns a block to the cache.
func (m AllocMemory) Free(b Block) error {
	ab, ok := b.(*alloc.Block)
	if !ok {
		return Errorf(RuntimeError, "internal: foreign block %T", b)
	}
	return m.A.Free(ab)
}

// Relabel renames a live block.
func (m AllocMemory) Relabel(b Block, label trace.Label) {
	if ab, ok := b.(*alloc.Block); ok {
		m.A.Relabel(ab, label)
	}
}
