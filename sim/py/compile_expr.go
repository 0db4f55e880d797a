package py

import (
	"fmt"
	"strings"

	"github.com/gpumem/playground/sim/py/syntax"
)

func (fc *fnCompiler) exprs(xs []syntax.Expr) ([]exprFn, error) {
	out := make([]exprFn, len(xs))
	for i, x := range xs {
		f, err := fc.expr(x)
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}

// expr compiles an expression (with line marks in multi-line mode).
func (fc *fnCompiler) expr(x syntax.Expr) (exprFn, error) {
	if fc.ml {
		return fc.exprML(x)
	}
	return fc.exprNode(x)
}

// exprNode compiles an expression node by kind.
func (fc *fnCompiler) exprNode(x syntax.Expr) (exprFn, error) {
	switch x := x.(type) {
	case *syntax.Ident:
		return fc.loadName(x.Name), nil
	case *syntax.Literal:
		return fc.literal(x)
	case *syntax.FString:
		return fc.fstring(x)
	case *syntax.UnaryExpr:
		return fc.unary(x)
	case *syntax.BinaryExpr:
		return fc.binary(x)
	case *syntax.CompareExpr:
		return fc.compare(x)
	case *syntax.CondExpr:
		cond, err := fc.cond(x.Cond)
		if err != nil {
			return nil, err
		}
		then, err := fc.expr(x.Then)
		if err != nil {
			return nil, err
		}
		els, err := fc.expr(x.Else)
		if err != nil {
			return nil, err
		}
		return func(fr *frame) (Value, error) {
			c, err := cond(fr)
			if err != nil {
				return nil, err
			}
			t, err := fr.it.Truth(c)
			fr.it.DecRef(c)
			if err != nil {
				return nil, err
			}
			if t {
				return then(fr)
			}
			return els(fr)
		}, nil
	case *syntax.NamedExpr:
		val, err := fc.expr(x.Value)
		if err != nil {
			return nil, err
		}
		val = fc.post(exprLine(x), val)
		// The target binds in the owner scope, not the comprehension.
		saved := fc.comps
		fc.comps = nil
		st := fc.storeName(x.Target.Name)
		fc.comps = saved
		return func(fr *frame) (Value, error) {
			v, err := val(fr)
			if err != nil {
				return nil, err
			}
			IncRef(v)
			if err := st(fr, v); err != nil {
				fr.it.DecRef(v)
				return nil, err
			}
			return v, nil
		}, nil
	case *syntax.LambdaExpr:
		return fc.lambda(x)
	case *syntax.CallExpr:
		return fc.call(x)
	case *syntax.DotExpr:
		obj, err := fc.expr(x.X)
		if err != nil {
			return nil, err
		}
		obj = fc.post(attrLine(x), obj)
		name := x.Name.Name
		return func(fr *frame) (Value, error) {
			o, err := obj(fr)
			if err != nil {
				return nil, err
			}
			v, err := fr.it.GetAttr(o, name)
			fr.it.DecRef(o)
			return v, err
		}, nil
	case *syntax.IndexExpr:
		obj, err := fc.expr(x.X)
		if err != nil {
			return nil, err
		}
		key, err := fc.subscript(x.Index)
		if err != nil {
			return nil, err
		}
		key = fc.post(exprLine(x), key)
		return func(fr *frame) (Value, error) {
			o, err := obj(fr)
			if err != nil {
				return nil, err
			}
			k, err := key(fr)
			if err != nil {
				fr.it.DecRef(o)
				return nil, err
			}
			v, err := fr.it.GetItem(o, k)
			fr.it.DecRef(o)
			fr.it.DecRef(k)
			return v, err
		}, nil
	case *syntax.SliceExpr:
		return fc.slice(x)
	case *syntax.TupleExpr:
		elems, err := fc.starredList(x.Elts, exprLine(x))
		if err != nil {
			return nil, err
		}
		return func(fr *frame) (Value, error) {
			vs, err := elems(fr)
			if err != nil {
				return nil, err
			}
			return fr.it.NewTuple(vs), nil
		}, nil
	case *syntax.ListExpr:
		elems, err := fc.starredList(x.Elts, exprLine(x))
		if err != nil {
			return nil, err
		}
		return func(fr *frame) (Value, error) {
			vs, err := elems(fr)
			if err != nil {
				return nil, err
			}
			return fr.it.NewList(vs), nil
		}, nil
	case *syntax.SetExpr:
		elems, err := fc.starredList(x.Elts, exprLine(x))
		if err != nil {
			return nil, err
		}
		return func(fr *frame) (Value, error) {
			vs, err := elems(fr)
			if err != nil {
				return nil, err
			}
			s := fr.it.NewSet()
			for i, v := range vs {
				if err := s.Add(fr.it, v); err != nil {
					fr.it.decRefAll(vs[i:])
					fr.it.DecRef(s)
					return nil, err
				}
				fr.it.DecRef(v)
			}
			return s, nil
		}, nil
	case *syntax.DictExpr:
		return fc.dict(x)
	case *syntax.Comprehension:
		if x.Kind == syntax.GenExp {
			return fc.genexp(x)
		}
		return fc.comprehension(x)
	case *syntax.StarredExpr:
		return nil, fmt.Errorf("can't use starred expression here")
	}
	return nil, fmt.Errorf("unsupported expression %T", x)
}

func (fc *fnCompiler) loadName(name string) exprFn {
	r := fc.ref(name)
	switch r.kind {
	case refFast:
		i := r.idx
		return func(fr *frame) (Value, error) {
			v := fr.slots[i]
			if v == nil {
				return nil, unboundLocal(name)
			}
			return IncRef(v), nil
		}
	case refCell:
		i := r.idx
		free := fc.isFreeCell(i)
		return func(fr *frame) (Value, error) {
			v := fr.cells[i].v
			if v == nil {
				if free {
					return nil, NewException(NameError, "cannot access free variable '"+name+"' where it is not associated with a value in enclosing scope")
				}
				return nil, unboundLocal(name)
			}
			return IncRef(v), nil
		}
	case refClassDeref:
		i := r.idx
		return func(fr *frame) (Value, error) {
			if v, ok := fr.ns.getStr(name); ok {
				return IncRef(v), nil
			}
			v := fr.cells[i].v
			if v == nil {
				return nil, nameError(name)
			}
			return IncRef(v), nil
		}
	case refGlobal:
		return func(fr *frame) (Value, error) {
			if v, ok := fr.globals.getStr(name); ok {
				return IncRef(v), nil
			}
			if v, ok := fr.it.builtins.getStr(name); ok {
				return IncRef(v), nil
			}
			return nil, nameError(name)
		}
	}
	return func(fr *frame) (Value, error) {
		if v, ok := fr.ns.getStr(name); ok {
			return IncRef(v), nil
		}
		if fr.ns != fr.globals {
			if v, ok := fr.globals.getStr(name); ok {
				return IncRef(v), nil
			}
		}
		if v, ok := fr.it.builtins.getStr(name); ok {
			return IncRef(v), nil
		}
		return nil, nameError(name)
	}
}

func (fc *fnCompiler) isFreeCell(i int) bool {
	return fc.code.paramCell[i] <= -2
}

func (fc *fnCompiler) literal(x *syntax.Literal) (exprFn, error) {
	var v Value
	switch x.Token {
	case syntax.INT:
		if x.BigInt != nil {
			v = MakeInt(x.BigInt)
		} else {
			v = Int(x.Int)
		}
	case syntax.FLOAT:
		v = Float(x.Float)
	case syntax.STRING:
		v = Str(x.Str)
	case syntax.BYTES:
		v = Bytes(x.Str)
	case syntax.NONE:
		v = None
	case syntax.TRUE:
		v = True
	case syntax.FALSE:
		v = False
	case syntax.ELLIPSIS:
		v = Ellipsis
	case syntax.IMAG:
		return func(fr *frame) (Value, error) {
			return nil, NewException(NotImplementedError, "complex numbers are not supported in the playground")
		}, nil
	default:
		return nil, fmt.Errorf("unsupported literal %v", x.Token)
	}
	return func(fr *frame) (Value, error) { return v, nil }, nil
}

func (fc *fnCompiler) fstring(x *syntax.FString) (exprFn, error) {
	type part struct {
		lit  string
		x    exprFn
		conv byte
		spec exprFn
	}
	var parts []part
	for _, p := range x.Parts {
		if p.Expr == nil {
			parts = append(parts, part{lit: p.Lit})
			continue
		}
		e, err := fc.expr(p.Expr)
		if err != nil {
			return nil, err
		}
		pp := part{x: e, conv: p.Conversion}
		if p.Spec != nil {
			if pp.spec, err = fc.fstring(p.Spec); err != nil {
				return nil, err
			}
		}
		parts = append(parts, pp)
	}
	for i := len(parts) - 1; i >= 0; i-- {
		if parts[i].x != nil {
			parts[i].x = fc.post(exprLine(x), parts[i].x) // BUILD_STRING
			break
		}
	}
	return func(fr *frame) (Value, error) {
		it := fr.it
		var sb strings.Builder
		for _, p := range parts {
			if p.x == nil {
				sb.WriteString(p.lit)
				continue
			}
			v, err := p.x(fr)
			if err != nil {
				return nil, err
			}
			switch p.conv {
			case 'r', 'a':
				s, err := it.Repr(v)
				it.DecRef(v)
				if err != nil {
					return nil, err
				}
				if p.conv == 'a' {
					s = asciiOf(s)
				}
				v = Str(s)
			case 's':
				s, err := it.Str(v)
				it.DecRef(v)
				if err != nil {
					return nil, err
				}
				v = Str(s)
			}
			spec := ""
			if p.spec != nil {
				sv, err := p.spec(fr)
				if err != nil {
					it.DecRef(v)
					return nil, err
				}
				spec = string(sv.(Str))
			}
			s, err := it.Format(v, spec)
			it.DecRef(v)
			if err != nil {
				return nil, err
			}
			sb.WriteString(s)
		}
		if err := it.checkSize(sb.Len()); err != nil {
			return nil, err
		}
		return Str(sb.String()), nil
	}, nil
}

func (fc *fnCompiler) unary(x *syntax.UnaryExpr) (exprFn, error) {
	v, err := fc.expr(x.X)
	if err != nil {
		return nil, err
	}
	v = fc.post(exprLine(x), v)
	if x.Op == syntax.NOT {
		return func(fr *frame) (Value, error) {
			a, err := v(fr)
			if err != nil {
				return nil, err
			}
			t, err := fr.it.Truth(a)
			fr.it.DecRef(a)
			if err != nil {
				return nil, err
			}
			return boolOf(!t), nil
		}, nil
	}
	var op Op
	switch x.Op {
	case syntax.MINUS:
		op = OpNeg
	case syntax.PLUS:
		op = OpPos
	case syntax.TILDE:
		op = OpInvert
	}
	return func(fr *frame) (Value, error) {
		a, err := v(fr)
		if err != nil {
			return nil, err
		}
		r, err := fr.it.unaryOp(op, a)
		fr.it.DecRef(a)
		return r, err
	}, nil
}

func binOpOf(t syntax.Token) Op {
	switch t {
	case syntax.PLUS:
		return OpAdd
	case syntax.MINUS:
		return OpSub
	case syntax.STAR:
		return OpMul
	case syntax.AT:
		return OpMatMul
	case syntax.SLASH:
		return OpTrueDiv
	case syntax.SLASHSLASH:
		return OpFloorDiv
	case syntax.PERCENT:
		return OpMod
	case syntax.STARSTAR:
		return OpPow
	case syntax.LTLT:
		return OpLShift
	case syntax.GTGT:
		return OpRShift
	case syntax.AMP:
		return OpAnd
	case syntax.PIPE:
		return OpOr
	case syntax.CIRCUMFLEX:
		return OpXor
	}
	return OpAdd
}

func (fc *fnCompiler) binary(x *syntax.BinaryExpr) (exprFn, error) {
	a, err := fc.expr(x.X)
	if err != nil {
		return nil, err
	}
	b, err := fc.expr(x.Y)
	if err != nil {
		return nil, err
	}
	switch x.Op {
	case syntax.AND, syntax.OR:
		// The jump after the left operand is at the expression's line.
		return fc.boolOp(x.Op == syntax.AND, fc.post(exprLine(x), a), b), nil
	}
	b = fc.post(exprLine(x), b)
	op := binOpOf(x.Op)
	return func(fr *frame) (Value, error) {
		l, err := a(fr)
		if err != nil {
			return nil, err
		}
		r, err := b(fr)
		if err != nil {
			fr.it.DecRef(l)
			return nil, err
		}
		if li, ok := l.(Int); ok {
			if ri, ok := r.(Int); ok {
				if v, ok := fastIntOp(op, li, ri); ok {
					return v, nil
				}
			}
		}
		v, err := fr.it.binaryOp(op, l, r)
		fr.it.DecRef(l)
		fr.it.DecRef(r)
		return v, err
	}, nil
}

// boolOp evaluates `a and b` (isAnd) or `a or b`.
func (fc *fnCompiler) boolOp(isAnd bool, a, b exprFn) exprFn {
	return func(fr *frame) (Value, error) {
		v, err := a(fr)
		if err != nil {
			return nil, err
		}
		t, err := fr.it.Truth(v)
		if err != nil {
			fr.it.DecRef(v)
			return nil, err
		}
		if t != isAnd {
			return v, nil
		}
		fr.it.DecRef(v)
		return b(fr)
	}
}

// fastIntOp computes small-int + - * < without overflow.
func fastIntOp(op Op, a, b Int) (Value, bool) {
	switch op {
	case OpAdd:
		r := a + b
		if (r > a) == (b > 0) {
			return r, true
		}
	case OpSub:
		r := a - b
		if (r < a) == (b > 0) {
			return r, true
		}
	case OpMul:
		if a > -(1<<31) && a < 1<<31 && b > -(1<<31) && b < 1<<31 {
			return a * b, true
		}
	}
	return nil, false
}

func cmpOpOf(t syntax.Token) Op {
	switch t {
	case syntax.LT:
		return OpLt
	case syntax.GT:
		return OpGt
	case syntax.LE:
		return OpLe
	case syntax.GE:
		return OpGe
	case syntax.EQL:
		return OpEq
	}
	return OpNe
}

func (fc *fnCompiler) compare(x *syntax.CompareExpr) (exprFn, error) {
	first, err := fc.expr(x.X)
	if err != nil {
		return nil, err
	}
	type link struct {
		tok syntax.Token
		y   exprFn
	}
	var links []link
	for _, c := range x.Ops {
		y, err := fc.expr(c.Y)
		if err != nil {
			return nil, err
		}
		links = append(links, link{c.Op, fc.post(exprLine(x), y)})
	}
	return func(fr *frame) (Value, error) {
		it := fr.it
		l, err := first(fr)
		if err != nil {
			return nil, err
		}
		for i, lk := range links {
			r, err := lk.y(fr)
			if err != nil {
				it.DecRef(l)
				return nil, err
			}
			res, err := it.compareTok(lk.tok, l, r)
			it.DecRef(l)
			if err != nil {
				it.DecRef(r)
				return nil, err
			}
			if i == len(links)-1 {
				it.DecRef(r)
				return res, nil
			}
			t, err := it.Truth(res)
			if err != nil || !t {
				it.DecRef(r)
				if err != nil {
					it.DecRef(res)
					return nil, err
				}
				return res, nil
			}
			it.DecRef(res)
			l = r
		}
		return l, nil
	}, nil
}

// compareTok evaluates one comparison link (new reference).
func (it *Interp) compareTok(tok syntax.Token, l, r Value) (Value, error) {
	switch tok {
	case syntax.IS:
		return boolOf(isSame(l, r)), nil
	case syntax.IS_NOT:
		return boolOf(!isSame(l, r)), nil
	case syntax.IN, syntax.NOT_IN:
		ok, err := it.Contains(r, l)
		if err != nil {
			return nil, err
		}
		if tok == syntax.NOT_IN {
			ok = !ok
		}
		return boolOf(ok), nil
	}
	if li, ok := l.(Int); ok {
		if ri, ok := r.(Int); ok {
			switch tok {
			case syntax.LT:
				return boolOf(li < ri), nil
			case syntax.GT:
				return boolOf(li > ri), nil
			case syntax.LE:
				return boolOf(li <= ri), nil
			case syntax.GE:
				return boolOf(li >= ri), nil
			case syntax.EQL:
				return boolOf(li == ri), nil
			case syntax.NEQ:
				return boolOf(li != ri), nil
			}
		}
	}
	return it.richCompare(cmpOpOf(tok), l, r)
}

// isSame implements the is operator.
func isSame(a, b Value) bool {
	if ao, ok := a.(Object); ok {
		bo, ok := b.(Object)
		return ok && ao == bo
	}
	switch x := a.(type) {
	case Float:
		y, ok := b.(Float)
		return ok && (x == y)
	case Str:
		y, ok := b.(Str)
		return ok && x == y
	}
	return a == b
}

func (fc *fnCompiler) subscript(x syntax.Expr) (exprFn, error) {
	return fc.expr(x)
}

func (fc *fnCompiler) slice(x *syntax.SliceExpr) (exprFn, error) {
	parts := []syntax.Expr{x.Lo, x.Hi, x.Step}
	var fs [3]exprFn
	for i, p := range parts {
		if p != nil {
			f, err := fc.expr(p)
			if err != nil {
				return nil, err
			}
			fs[i] = f
		}
	}
	if x.Step != nil {
		fs[2] = fc.post(exprLine(x), fs[2]) // BUILD_SLICE
	}
	return func(fr *frame) (Value, error) {
		var vs [3]Value
		for i, f := range fs {
			if f == nil {
				vs[i] = None
				continue
			}
			v, err := f(fr)
			if err != nil {
				for j := 0; j < i; j++ {
					fr.it.DecRef(vs[j])
				}
				return nil, err
			}
			vs[i] = v
		}
		return fr.it.newSlice(vs[0], vs[1], vs[2]), nil
	}, nil
}

// starredList compiles display elements, expanding *x.
// In multi-line mode the display's build instruction (at line ln) follows
// its last element.
func (fc *fnCompiler) starredList(xs []syntax.Expr, ln int) (func(fr *frame) ([]Value, error), error) {
	type el struct {
		f    exprFn
		star bool
	}
	var els []el
	hasStar := false
	for _, x := range xs {
		if s, ok := x.(*syntax.StarredExpr); ok {
			f, err := fc.expr(s.X)
			if err != nil {
				return nil, err
			}
			els = append(els, el{f, true})
			hasStar = true
			continue
		}
		f, err := fc.expr(x)
		if err != nil {
			return nil, err
		}
		els = append(els, el{f, false})
	}
	if len(els) > 0 {
		els[len(els)-1].f = fc.post(ln, els[len(els)-1].f)
	}
	n := len(els)
	return func(fr *frame) ([]Value, error) {
		var out []Value
		if !hasStar {
			out = make([]Value, 0, n)
		}
		for _, e := range els {
			v, err := e.f(fr)
			if err != nil {
				fr.it.decRefAll(out)
				return nil, err
			}
			if !e.star {
				out = append(out, v)
				continue
			}
			items, err := fr.it.iterToSlice(v)
			fr.it.DecRef(v)
			if err != nil {
				fr.it.decRefAll(out)
				return nil, err
			}
			out = append(out, items...)
		}
		return out, nil
	}, nil
}

func (fc *fnCompiler) dict(x *syntax.DictExpr) (exprFn, error) {
	type ent struct {
		k, v exprFn
	}
	var ents []ent
	// Several constant keys without ** are one constant tuple loaded after
	// the values (BUILD_CONST_KEY_MAP): they mark no line.
	constKeys := len(x.Entries) > 1
	for _, e := range x.Entries {
		if e.Key == nil || !isConstExpr(e.Key) {
			constKeys = false
		}
	}
	ln := exprLine(x)
	for i, e := range x.Entries {
		var k exprFn
		var err error
		if e.Key != nil {
			err = fc.multiLine(fc.ml && !constKeys, func() (err error) {
				k, err = fc.expr(e.Key)
				return err
			})
			if err != nil {
				return nil, err
			}
		}
		v, err := fc.expr(e.Value)
		if err != nil {
			return nil, err
		}
		// BUILD_MAP after a group of entries, DICT_UPDATE after **x.
		if e.Key == nil || i == len(x.Entries)-1 || x.Entries[i+1].Key == nil {
			v = fc.post(ln, v)
		}
		ents = append(ents, ent{k, v})
	}
	return func(fr *frame) (Value, error) {
		it := fr.it
		d := it.NewDict()
		for _, e := range ents {
			if e.k == nil {
				m, err := e.v(fr)
				if err != nil {
					it.DecRef(d)
					return nil, err
				}
				err = it.dictUpdate(d, m, true)
				it.DecRef(m)
				if err != nil {
					it.DecRef(d)
					return nil, err
				}
				continue
			}
			k, err := e.k(fr)
			if err != nil {
				it.DecRef(d)
				return nil, err
			}
			v, err := e.v(fr)
			if err != nil {
				it.DecRef(k)
				it.DecRef(d)
				return nil, err
			}
			err = d.SetItem(it, k, v)
			it.DecRef(k)
			it.DecRef(v)
			if err != nil {
				it.DecRef(d)
				return nil, err
			}
		}
		return d, nil
	}, nil
}
