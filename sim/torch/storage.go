package torch

import (
	"fmt"

	"github.com/gpumem/playground/sim/trace"
)

// Storage is c10::StorageImpl: the bytes a tensor's elements live in. Views
// share one Storage; the GPU block is freed when the last reference drops.
type Storage struct {
	rt     *Runtime
	refs   int32
	nbytes int64
	device Device
	block  Block
	label  trace.Label
	pinned bool // page-locked host memory (Tensor.pin_memory)
}

// newStorage allocates nbytes on dev (no allocator call for CPU storage or
// zero bytes).
func (rt *Runtime) newStorage(nbytes int64, dev Device, label trace.Label) (*Storage, error) {
	s := &Storage{rt: rt, refs: 1, nbytes: nbytes, device: dev.Concrete(), label: label}
	if dev.IsCUDA() && nbytes > 0 {
		b, err := rt.malloc(nbytes, label)
		if err != nil {
			return nil, err
		}
		s.block = b
	} else if dev.IsCUDA() {
		if err := rt.InitCUDA(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *Storage) retain() { s.refs++ }

func (s *Storage) release() {
	s.refs--
	if s.refs == 0 {
		if s.rt.exec != nil {
			s.rt.exec.Release(storageID(s))
		}
		if s.block != nil {
			s.rt.free(s.block)
			s.block = nil
		}
	} else if s.refs < 0 {
		s.refs = 0
		s.rt.bug("storage released too often")
	}
}

// Nbytes is the storage size in bytes (untyped_storage().nbytes()).
func (s *Storage) Nbytes() int64 { return s.nbytes }

// relabel gives the GPU block a better name.
func (s *Storage) relabel(l trace.Label) {
	s.label = l
	if s.block != nil && s.rt.mem != nil {
		s.rt.mem.Relabel(s.block, l)
	}
}

// defaultLabel names an allocation made now by op from its context.
func (rt *Runtime) defaultLabel(op string) trace.Label {
	if rt.th == autogradThread {
		return trace.Label{Kind: trace.LabelTemporary, Name: "gradient from " + op, Detail: "computed by " + op + " during backward"}
	}
	if m := rt.module(); m != "" {
		return trace.Label{Kind: trace.LabelActivation, Name: op + " in " + m, Detail: "output of " + op + " in " + m}
	}
	if l := rt.line(); l > 0 {
		return trace.Label{Kind: trace.LabelUser, Name: fmt.Sprintf("tensor from line %d", l), Detail: "made by " + op}
	}
	return trace.Label{Kind: trace.LabelUser, Name: "tensor", Detail: "made by " + op}
}
