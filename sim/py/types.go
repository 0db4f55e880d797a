package py

// Builtin types (shared, immortal).
var (
	ObjectClass           = newRootClass()
	TypeClass             = newBuiltinClass("type", ObjectClass)
	NoneClass             = newBuiltinClass("NoneType", ObjectClass)
	EllipsisClass         = newBuiltinClass("ellipsis", ObjectClass)
	NotImplementedClass   = newBuiltinClass("NotImplementedType", ObjectClass)
	IntClass              = newBuiltinClass("int", ObjectClass)
	BoolClass             = newBuiltinClass("bool", IntClass)
	FloatClass            = newBuiltinClass("float", ObjectClass)
	StrClass              = newBuiltinClass("str", ObjectClass)
	BytesClass            = newBuiltinClass("bytes", ObjectClass)
	ListClass             = newBuiltinClass("list", ObjectClass)
	TupleClass            = newBuiltinClass("tuple", ObjectClass)
	DictClass             = newBuiltinClass("dict", ObjectClass)
	SetClass              = newBuiltinClass("set", ObjectClass)
	FrozenSetClass        = newBuiltinClass("frozenset", ObjectClass)
	RangeClass            = newBuiltinClass("range", ObjectClass)
	SliceClass            = newBuiltinClass("slice", ObjectClass)
	FunctionClass         = newBuiltinClass("function", ObjectClass)
	MethodClass           = newBuiltinClass("method", ObjectClass)
	BuiltinClass          = newBuiltinClass("builtin_function_or_method", ObjectClass)
	MethodDescriptorClass = newBuiltinClass("method_descriptor", ObjectClass)
	ModuleClass           = newBuiltinClass("module", ObjectClass)
	CellClass             = newBuiltinClass("cell", ObjectClass)
	FrameClass            = newBuiltinClass("frame", ObjectClass)
	TracebackClass        = newBuiltinClass("traceback", ObjectClass)
	IteratorClass         = newBuiltinClass("iterator", ObjectClass)
	GeneratorClass        = newBuiltinClass("generator", ObjectClass)
	DictViewClass         = newBuiltinClass("dict_view", ObjectClass)
	PropertyClass         = newBuiltinClass("property", ObjectClass)
	StaticMethodClass     = newBuiltinClass("staticmethod", ObjectClass)
	ClassMethodClass      = newBuiltinClass("classmethod", ObjectClass)
	SuperClass            = newBuiltinClass("super", ObjectClass)
	GoPropertyClass       = newBuiltinClass("getset_descriptor", ObjectClass)
)

func newRootClass() *Class {
	c := &Class{Name: "object", Module: "builtins", builtin: true, Dict: newImmortalDict()}
	c.flags |= flagImmortal
	c.MRO = []*Class{c}
	return c
}

func init() {
	BaseException.Bases = []*Class{ObjectClass}
	for _, c := range builtinExcClasses {
		c.MRO = append(c.MRO, ObjectClass)
	}
	initTypeMethods()
}

// Property is a Python property object.
type Property struct {
	Base
	fget, fset, fdel Value
	doc              Value
}

// Type returns property.
func (*Property) Type() *Class { return PropertyClass }

func (p *Property) dealloc(it *Interp) {
	for _, v := range []Value{p.fget, p.fset, p.fdel} {
		if v != nil {
			it.DecRef(v)
		}
	}
}

func (p *Property) traverse(visit func(Value)) {
	for _, v := range []Value{p.fget, p.fset, p.fdel} {
		if v != nil {
			visit(v)
		}
	}
}

func (p *Property) clear(it *Interp) {
	a, b, c := p.fget, p.fset, p.fdel
	p.fget, p.fset, p.fdel = nil, nil, nil
	for _, v := range []Value{a, b, c} {
		if v != nil {
			it.DecRef(v)
		}
	}
}

// GoProperty is a property implemented in Go (builtin and host types).
type GoProperty struct {
	Base
	Name string
	Get  func(it *Interp, self Value) (Value, error)
	Set  func(it *Interp, self, v Value) error
}

// Type returns getset_descriptor.
func (*GoProperty) Type() *Class { return GoPropertyClass }

// StaticMethod wraps a function so it is not bound.
type StaticMethod struct {
	Base
	fn Value
}

// Type returns staticmethod.
func (*StaticMethod) Type() *Class { return StaticMethodClass }

func (s *StaticMethod) dealloc(it *Interp) { it.DecRef(s.fn) }
func (s *StaticMethod) traverse(visit func(Value)) {
	visit(s.fn)
}

// ClassMethod wraps a function so it is bound to the class.
type ClassMethod struct {
	Base
	fn Value
}

// Type returns classmethod.
func (*ClassMethod) Type() *Class { return ClassMethodClass }

func (s *ClassMethod) dealloc(it *Interp) { it.DecRef(s.fn) }
func (s *ClassMethod) traverse(visit func(Value)) {
	visit(s.fn)
}

// Super is the result of super(): attribute lookup starting after cls in
// obj's MRO.
type Super struct {
	Base
	cls *Class
	obj Value
}

// Type returns super.
func (*Super) Type() *Class { return SuperClass }

func (s *Super) dealloc(it *Interp) {
	it.DecRef(s.obj)
	it.DecRef(s.cls)
}

func (s *Super) traverse(visit func(Value)) {
	visit(s.obj)
	visit(s.cls)
}

// Attr implements attribute lookup through super().
func (s *Super) Attr(it *Interp, name string) (Value, bool, error) {
	var start *Class
	if c, ok := s.obj.(*Class); ok {
		start = c
	} else {
		start = s.obj.Type()
	}
	mro := start.MRO
	i := 0
	for i < len(mro) && mro[i] != s.cls {
		i++
	}
	for _, k := range mro[i+1:] {
		if v, ok := k.Dict.getStr(name); ok {
			if _, isClass := s.obj.(*Class); isClass {
				switch a := v.(type) {
				case *ClassMethod:
					return it.newBound(a.fn, s.obj), true, nil
				case *StaticMethod:
					return IncRef(a.fn), true, nil
				}
				return IncRef(v), true, nil
			}
			r, err := it.bindDescriptor(v, s.obj, start)
			return r, true, err
		}
	}
	if name == "__init__" || name == "__setattr__" || name == "__delattr__" || name == "__getattribute__" {
		if v, ok := ObjectClass.Dict.getStr(name); ok {
			r, err := it.bindDescriptor(v, s.obj, start)
			return r, true, err
		}
	}
	return nil, false, nil
}
