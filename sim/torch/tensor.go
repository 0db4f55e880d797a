package torch

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/gpumem/playground/sim/trace"
)

// Tensor is at::TensorImpl with its autograd metadata: shape, strides,
// storage offset, dtype, the shared Storage, and requires_grad, grad,
// grad_fn, version counter, view base.
//
// A *Tensor is reference counted: Retain adds a reference, Release drops one;
// the last Release drops the storage, the grad, the grad_fn and the view
// base, in that order.
type Tensor struct {
	rt      *Runtime
	refs    int32
	id      uint64
	storage *Storage
	shape   []int64
	strides []int64
	offset  int64
	dtype   DType
	device  Device

	requiresGrad bool // leaf that requires grad
	grad         *Tensor
	gradFn       *Node
	outputNr     int
	gradAcc      *Node // AccumulateGrad of a leaf (weak: the node owns the tensor)
	version      *int64
	base         *Tensor // base of a differentiable view (strong)
	isView       bool
	multiOutput  bool // a view output of split/unbind (one node for all): no in-place ops
	param        bool // nn.Parameter
	retainsGrad  bool
	name         string // parameter path or variable name, for labels
	inference    bool   // created in inference mode

	// leafHooks are a leaf's register_hook hooks (tensor_hooks.go).
	leafHooks *HookList

	// Py is the binding's Python object for this tensor, if one exists
	// (PyObject preservation); not a reference.
	Py any
}

func (rt *Runtime) newTensorOn(s *Storage, shape, strides []int64, offset int64, dt DType) *Tensor {
	rt.nextID++
	v := int64(0)
	return &Tensor{rt: rt, refs: 1, id: rt.nextID, storage: s, shape: shape, strides: strides, offset: offset,
		dtype: dt, device: s.device, version: &v, inference: rt.inference}
}

// empty allocates a new dense tensor (strides nil: row-major).
func (rt *Runtime) empty(op string, shape []int64, strides []int64, dt DType, dev Device) (*Tensor, error) {
	for _, s := range shape {
		if s < 0 {
			return nil, Errorf(RuntimeError, "Trying to create tensor with negative dimension %d: %s", s, shapeList(shape))
		}
	}
	if strides == nil {
		strides = contiguousStrides(shape)
	}
	nbytes, ok := storageNbytes(shape, strides, dt.Size())
	if !ok {
		return nil, Errorf(RuntimeError, "Storage size calculation overflowed with sizes=%s", shapeList(shape))
	}
	st, err := rt.newStorage(nbytes, dev, rt.defaultLabel(op))
	if err != nil {
		return nil, err
	}
	return rt.newTensorOn(st, cloneShape(shape), cloneShape(strides), 0, dt), nil
}

// storageNbytes is the byte size of a dense (shape, strides) tensor of
// elements of size elem, as c10's computeStorageNbytes: ok is false when
// the product overflows int64 (PyTorch raises instead of wrapping around
// to a small allocation).
func storageNbytes(shape, strides []int64, elem int64) (n int64, ok bool) {
	for _, s := range shape {
		if s == 0 { // numel(shape) may wrap to 0 without a zero size
			return 0, true
		}
	}
	elems := uint64(1) // every size is >= 1 here
	for _, s := range shape {
		hi, lo := bits.Mul64(elems, uint64(s))
		if hi != 0 || lo > math.MaxInt64 {
			return 0, false
		}
		elems = lo
	}
	n = 1
	for i, s := range shape {
		hi, lo := bits.Mul64(uint64(s-1), uint64(strides[i]))
		if hi != 0 || lo > math.MaxInt64-uint64(n) {
			return 0, false
		}
		n += int64(lo)
	}
	hi, lo := bits.Mul64(uint64(n), uint64(elem))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	return int64(lo), true
}

// emptyLike allocates a tensor like t (preserve_format) with dtype dt.
func (rt *Runtime) emptyLike(op string, t *Tensor, dt DType) (*Tensor, error) {
	return rt.empty(op, t.shape, stridesLike(t.shape, t.strides), dt, t.device)
}

// Retain adds a reference and returns t.
func (t *Tensor) Retain() *Tensor {
	if t != nil {
		t.refs++
	}
	return t
}

// Release drops a reference; the last one frees what the tensor holds.
func (t *Tensor) Release() {
	if t == nil {
		return
	}
	t.refs--
	if t.refs > 0 {
		return
	}
	if t.refs < 0 {
		t.refs = 0
		t.rt.bug("tensor released too often")
		return
	}
	// TensorImpl::release_resources: the autograd meta first (view base,
	// grad_fn, grad, in reverse declaration order), then the storage.
	if b := t.base; b != nil {
		t.base = nil
		b.Release()
	}
	if fn := t.gradFn; fn != nil {
		t.gradFn = nil
		if t.retainsGrad {
			delete(fn.retainGrad, t.outputNr)
		}
		fn.release()
	}
	if g := t.grad; g != nil {
		t.grad = nil
		g.Release()
	}
	if hl := t.leafHooks; hl != nil {
		t.leafHooks = nil
		hl.release()
	}
	if st := t.storage; st != nil {
		t.storage = nil
		st.release()
	}
}

// Refs is the tensor's use_count().
func (t *Tensor) Refs() int { return int(t.refs) }

// Shape is the tensor's size (a copy).
func (t *Tensor) Shape() []int64 { return cloneShape(t.shape) }

// Strides is the tensor's stride (a copy).
func (t *Tensor) Strides() []int64 { return cloneShape(t.strides) }

// Offset is storage_offset().
func (t *Tensor) Offset() int64 { return t.offset }

// Dim is the number of dimensions.
func (t *Tensor) Dim() int { return len(t.shape) }

// Numel is the number of elements.
func (t *Tensor) Numel() int64 { return numel(t.shape) }

// DType is the element type.
func (t *Tensor) DType() DType { return t.dtype }

// Device is where the storage lives.
func (t *Tensor) Device() Device { return t.device }

// ElementSize is element_size().
func (t *Tensor) ElementSize() int64 { return t.dtype.Size() }

// IsContiguous is is_contiguous().
func (t *Tensor) IsContiguous() bool { return isContiguous(t.shape, t.strides) }

// RequiresGrad is requires_grad.
func (t *Tensor) RequiresGrad() bool { return t.requiresGrad || t.gradFn != nil }

// IsLeaf is is_leaf.
func (t *Tensor) IsLeaf() bool { return t.gradFn == nil }

// GradFn is grad_fn (borrowed; nil for leaves).
func (t *Tensor) GradFn() *Node { return t.gradFn }

// Grad is .grad (borrowed; nil if none).
func (t *Tensor) Grad() *Tensor { return t.grad }

// IsParameter reports an nn.Parameter.
func (t *Tensor) IsParameter() bool { return t.param }

// Version is the in-place version counter (_version).
func (t *Tensor) Version() int64 { return *t.version }

// StorageNbytes is untyped_storage().nbytes().
func (t *Tensor) StorageNbytes() int64 {
	if t.storage == nil {
		return 0
	}
	return t.storage.nbytes
}

// SameStorage reports whether two tensors share memory (views).
func (t *Tensor) SameStorage(o *Tensor) bool { return t.storage != nil && t.storage == o.storage }

// ID is a stable identity for the tensor implementation.
func (t *Tensor) ID() uint64 { return t.id }

// Name is the label name given to the tensor (parameter path or variable).
func (t *Tensor) Name() string { return t.name }

// SetRequiresGrad is requires_grad_(b) / requires_grad = b.
func (t *Tensor) SetRequiresGrad(b bool) error {
	if !t.IsLeaf() {
		if b {
			return nil
		}
		return Errorf(RuntimeError, "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().")
	}
	if b && !t.dtype.Differentiable() {
		return Errorf(RuntimeError, "only Tensors of floating point and complex dtype can require gradients")
	}
	t.requiresGrad = b
	return nil
}

// SetGrad is `t.grad = g` (g nil: None). g is borrowed.
func (t *Tensor) SetGrad(g *Tensor) error {
	if g != nil {
		if g.device != t.device {
			return Errorf(RuntimeError, "attempting to assign a gradient with device type '%s' to a tensor with device type '%s'. Please ensure that the gradient and the tensor are on the same device", g.device.TypeName(), t.device.TypeName())
		}
		if g.dtype != t.dtype {
			return Errorf(RuntimeError, "attempting to assign a gradient with dtype '%s' to a tensor with dtype '%s'. Please ensure that the gradient and the tensor have the same dtype", g.dtype.Name(), t.dtype.Name())
		}
		if !sameShape(g.shape, t.shape) {
			return Errorf(RuntimeError, "attempting to assign a gradient of size '%s' to a tensor of size '%s'. Please ensure that the gradient and the tensor are the same size", shapeList(g.shape), shapeList(t.shape))
		}
		g.Retain()
		t.labelGrad(g)
	}
	old := t.grad
	t.grad = g
	old.Release()
	return nil
}

// labelGrad names g's memory as the gradient of t.
func (t *Tensor) labelGrad(g *Tensor) {
	if g.storage == nil || g.storage == t.storage {
		return
	}
	name := t.name
	if name == "" {
		name = "tensor"
	}
	g.storage.relabel(trace.Label{Kind: trace.LabelGradient, Name: "grad of " + name, Detail: ".grad of " + name})
}

// SetName names the tensor for labels and relabels its memory with kind.
func (t *Tensor) SetName(name string, kind trace.LabelKind, detail string) {
	t.name = name
	if t.storage != nil {
		t.storage.relabel(trace.Label{Kind: kind, Name: name, Detail: detail})
	}
	if t.grad != nil {
		t.labelGrad(t.grad)
	}
}

// MarkParameter makes t an nn.Parameter (a leaf requiring grad if rg).
func (t *Tensor) MarkParameter(rg bool) {
	t.param = true
	t.requiresGrad = rg && t.dtype.Differentiable()
}

// Label is the label of the tensor's memory.
func (t *Tensor) Label() trace.Label {
	if t.storage == nil {
		return trace.Label{}
	}
	return t.storage.label
}

// Describe is the metadata part of the tensor's repr:
// "<simulated: shape (64, 10), float32, cuda:0>".
func (t *Tensor) Describe() string {
	parts := make([]string, len(t.shape))
	for i, s := range t.shape {
		parts[i] = fmt.Sprint(s)
	}
	shape := "(" + strings.Join(parts, ", ")
	if len(parts) == 1 {
		shape += ","
	}
	shape += ")"
	if t.rt != nil && t.rt.exec != nil {
		return fmt.Sprintf("<not computed: shape %s, %s, %s>", shape, t.dtype.Name(), t.device)
	}
	return fmt.Sprintf("<simulated: shape %s, %s, %s>", shape, t.dtype.Name(), t.device)
}

// Repr is repr(tensor): tensor(<simulated: ...>, grad_fn=<AddmmBackward0>) or
// requires_grad=True for leaves that require grad.
func (t *Tensor) Repr() string {
	var b strings.Builder
	if t.param {
		b.WriteString("Parameter containing:\n")
	}
	if t.rt != nil && t.rt.exec != nil {
		if s, ok := t.valueRepr(); ok {
			b.WriteString(s)
			return b.String()
		}
	}
	b.WriteString("tensor(")
	b.WriteString(t.Describe())
	switch {
	case t.gradFn != nil:
		fmt.Fprintf(&b, ", grad_fn=<%s>", t.gradFn.name)
	case t.requiresGrad:
		b.WriteString(", requires_grad=True")
	}
	b.WriteString(")")
	return b.String()
}

// bumpVersion marks an in-place modification.
func (t *Tensor) bumpVersion() { *t.version++ }
