package torch

import "github.com/gpumem/playground/sim/trace"

// scratch holds GPU temporaries an ATen kernel takes from the caching
// allocator around its output (index copies, sort buffers, cub's temp
// storage): alloc takes one, free gives one back early, release gives back
// the rest, newest first (C++ destroys locals in reverse order).
type scratch struct {
	rt     *Runtime
	blocks []Block
	live   []bool
}

// alloc takes size bytes labelled as a temporary and returns its handle;
// size 0 takes nothing (the caching allocator returns no block for it).
func (s *scratch) alloc(size int64, name, detail string) (int, error) {
	if size <= 0 {
		return -1, nil
	}
	b, err := s.rt.malloc(size, trace.Label{Kind: trace.LabelTemporary, Name: name, Detail: detail})
	if err != nil {
		return -1, err
	}
	s.blocks = append(s.blocks, b)
	s.live = append(s.live, true)
	return len(s.blocks) - 1, nil
}

// free gives back the temporary h now (h < 0: none).
func (s *scratch) free(h int) {
	if h < 0 || h >= len(s.blocks) || !s.live[h] {
		return
	}
	s.live[h] = false
	s.rt.free(s.blocks[h])
}

// release gives back every temporary still held, newest first.
func (s *scratch) release() {
	for h := len(s.blocks) - 1; h >= 0; h-- {
		s.free(h)
	}
}
