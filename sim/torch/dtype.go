package torch

import "fmt"

// DType is a tensor element type (torch.dtype).
type DType uint8

// The dtypes the model knows, in PyTorch's ScalarType order.
const (
	Uint8 DType = iota
	Int8
	Int16
	Int32
	Int64
	Float16
	Float32
	Float64
	Complex64
	Complex128
	Bool
	BFloat16
	numDTypes
)

var dtypeInfo = [numDTypes]struct {
	name  string // torch.<name>
	size  int64
	short string // the name used by Tensor.type(): FloatTensor, ...
}{
	Uint8:      {"uint8", 1, "ByteTensor"},
	Int8:       {"int8", 1, "CharTensor"},
	Int16:      {"int16", 2, "ShortTensor"},
	Int32:      {"int32", 4, "IntTensor"},
	Int64:      {"int64", 8, "LongTensor"},
	Float16:    {"float16", 2, "HalfTensor"},
	Float32:    {"float32", 4, "FloatTensor"},
	Float64:    {"float64", 8, "DoubleTensor"},
	Complex64:  {"complex64", 8, "ComplexFloatTensor"},
	Complex128: {"complex128", 16, "ComplexDoubleTensor"},
	Bool:       {"bool", 1, "BoolTensor"},
	BFloat16:   {"bfloat16", 2, "BFloat16Tensor"},
}

// Size is the element size in bytes (Tensor.element_size()).
func (d DType) Size() int64 {
	if d >= numDTypes {
		return 0
	}
	return dtypeInfo[d].size
}

// Name is the dtype's name without the "torch." prefix.
func (d DType) Name() string {
	if d >= numDTypes {
		return fmt.Sprintf("dtype(%d)", uint8(d))
	}
	return dtypeInfo[d].name
}

// String is the dtype as Python prints it: "torch.float32".
func (d DType) String() string { return "torch." + d.Name() }

// TypeName is the legacy tensor type name used by Tensor.type().
func (d DType) TypeName() string {
	if d >= numDTypes {
		return "Tensor"
	}
	return dtypeInfo[d].short
}

// IsFloating reports a real floating-point dtype.
func (d DType) IsFloating() bool {
	return d == Float16 || d == Float32 || d == Float64 || d == BFloat16
}

// IsComplex reports a complex dtype.
func (d DType) IsComplex() bool { return d == Complex64 || d == Complex128 }

// IsIntegral reports an integer dtype; includeBool counts bool as integral.
func (d DType) IsIntegral(includeBool bool) bool {
	switch d {
	case Uint8, Int8, Int16, Int32, Int64:
		return true
	case Bool:
		return includeBool
	}
	return false
}

// Differentiable reports whether tensors of this dtype may require grad.
func (d DType) Differentiable() bool { return d.IsFloating() || d.IsComplex() }

// dtypeAliases maps every spelling torch accepts to a dtype.
var dtypeAliases = map[string]DType{
	"uint8": Uint8, "int8": Int8, "int16": Int16, "short": Int16, "int32": Int32, "int": Int32,
	"int64": Int64, "long": Int64, "float16": Float16, "half": Float16, "float32": Float32,
	"float": Float32, "float64": Float64, "double": Float64, "complex64": Complex64,
	"cfloat": Complex64, "complex128": Complex128, "cdouble": Complex128, "bool": Bool,
	"bfloat16": BFloat16,
}

// DTypeNames lists the torch.<name> attributes that are dtypes.
func DTypeNames() map[string]DType {
	m := make(map[string]DType, len(dtypeAliases))
	for k, v := range dtypeAliases {
		m[k] = v
	}
	return m
}

// ParseDType resolves a name such as "float32", "half" or "torch.int64".
func ParseDType(name string) (DType, bool) {
	if len(name) > 6 && name[:6] == "torch." {
		name = name[6:]
	}
	d, ok := dtypeAliases[name]
	return d, ok
}

// promotion follows c10::promoteTypes for the dtypes above.
func promotionRank(d DType) int {
	switch d {
	case Bool:
		return 0
	case Uint8, Int8:
		return 1
	case Int16:
		return 2
	case Int32:
		return 3
	case Int64:
		return 4
	case Float16, BFloat16:
		return 5
	case Float32:
		return 6
	case Float64:
		return 7
	case Complex64:
		return 8
	case Complex128:
		return 9
	}
	return -1
}

// PromoteTypes is c10::promoteTypes: the smallest dtype both a and b fit in.
func PromoteTypes(a, b DType) DType {
	if a == b {
		return a
	}
	if (a == Uint8 && b == Int8) || (a == Int8 && b == Uint8) {
		return Int16
	}
	if (a == Float16 && b == BFloat16) || (a == BFloat16 && b == Float16) {
		return Float32
	}
	if a.IsComplex() || b.IsComplex() {
		// complex with float64 widens to complex128
		if a == Float64 || b == Float64 || a == Complex128 || b == Complex128 {
			return Complex128
		}
		return Complex64
	}
	if promotionRank(a) >= promotionRank(b) {
		return a
	}
	return b
}

// ScalarKind is the category of a Python number taking part in an operation.
type ScalarKind uint8

// Python scalar categories.
const (
	ScalarBool ScalarKind = iota
	ScalarInt
	ScalarFloat
	ScalarComplex
)

func (k ScalarKind) dtype() DType {
	switch k {
	case ScalarBool:
		return Bool
	case ScalarInt:
		return Int64
	case ScalarComplex:
		return Complex64
	}
	return Float32 // torch.get_default_dtype()
}

// ResultType is at::result_type over tensors (dimensioned ones take priority
// over zero-dim ones, which take priority over Python scalars of the same
// category) — the dtype of an elementwise op's output.
func ResultType(tensors []*Tensor, scalars []ScalarKind) DType {
	const undef = DType(255)
	dimR, zeroR, wrapR := undef, undef, undef
	up := func(cur, d DType) DType {
		if cur == undef {
			return d
		}
		return PromoteTypes(cur, d)
	}
	for _, t := range tensors {
		if t == nil {
			continue
		}
		if len(t.shape) == 0 {
			zeroR = up(zeroR, t.dtype)
		} else {
			dimR = up(dimR, t.dtype)
		}
	}
	for _, s := range scalars {
		wrapR = up(wrapR, s.dtype())
	}
	combine := func(higher, lower DType) DType {
		if higher != undef && higher.IsComplex() {
			return higher
		}
		if lower != undef && lower.IsComplex() {
			if higher != undef && higher.IsFloating() {
				if higher == Float64 {
					return Complex128
				}
				return Complex64
			}
			return lower
		}
		if higher != undef && higher.IsFloating() {
			return higher
		}
		if higher == Bool || (lower != undef && lower.IsFloating()) {
			if higher == undef {
				return lower
			}
			if lower == undef {
				return higher
			}
			return PromoteTypes(higher, lower)
		}
		if higher != undef {
			return higher
		}
		return lower
	}
	r := combine(dimR, combine(zeroR, wrapR))
	if r == undef {
		return Float32
	}
	return r
}
