package py

import "github.com/gpumem/playground/sim/py/syntax"

// Line events of statements that span several lines.
//
// CPython 3.12 gives every instruction the line where the AST node that
// emits it starts (an attribute load or method call whose name sits on a
// later line than its object takes the name's line), and fires a line event
// when an instruction's line differs from the one executed before it in the
// same frame. A statement whose header fits on one line therefore fires one
// event, at its start; that is what `simple` does. For a statement that
// spans lines the compiler runs in multi-line mode (fnCompiler.ml): the
// statement fires nothing by itself, and every node marks its line where
// CPython runs the node's own instruction: a leaf, or a subtree that sits on
// one line, before it is evaluated (pre); a node with children on other
// lines after its last child (post), since its own instruction follows its
// operands. A mark fires an event only when the line changes, as CPython
// does, and sets the frame's line for tracebacks.

// markLine records that fr runs an instruction of line ln.
func markLine(fr *frame, ln int) {
	fr.line = ln
	if fr.code.traced && ln != fr.lastLine {
		fr.it.lineEvent(fr, ln)
	}
}

// preMark returns f preceded by a mark of ln.
//
// Not inlined: its closure would be copied into every caller (size of the
// wasm module).
//
//go:noinline
func preMark(ln int, f exprFn) exprFn {
	return func(fr *frame) (Value, error) {
		markLine(fr, ln)
		return f(fr)
	}
}

// postMark returns f followed, when it succeeds, by a mark of ln: the line of
// the instruction that consumes f's value.
//
// Not inlined: its closure would be copied into every caller (size of the
// wasm module).
//
//go:noinline
func postMark(ln int, f exprFn) exprFn {
	return func(fr *frame) (Value, error) {
		v, err := f(fr)
		if err == nil {
			markLine(fr, ln)
		}
		return v, err
	}
}

// post is postMark in multi-line mode and f otherwise.
func (fc *fnCompiler) post(ln int, f exprFn) exprFn {
	if !fc.ml || f == nil {
		return f
	}
	return postMark(ln, f)
}

// pre is preMark in multi-line mode and f otherwise.
func (fc *fnCompiler) pre(ln int, f exprFn) exprFn {
	if !fc.ml || f == nil {
		return f
	}
	return preMark(ln, f)
}

// preStore returns st preceded by a mark of ln in multi-line mode.
func (fc *fnCompiler) preStore(ln int, st storeFn) storeFn {
	if !fc.ml {
		return st
	}
	return func(fr *frame, v Value) error {
		markLine(fr, ln)
		return st(fr, v)
	}
}

// spansLines reports whether the nodes do not all lie on line ln.
func spansLines(ln int, nodes ...syntax.Node) bool {
	for _, n := range nodes {
		if n == nil {
			continue
		}
		if x, ok := n.(syntax.Expr); ok && x == nil {
			continue
		}
		start, end := n.Span()
		if int(start.Line) != ln || int(end.Line) != ln {
			return true
		}
	}
	return false
}

// multiLine compiles with multi-line mode set to on and restores it.
func (fc *fnCompiler) multiLine(on bool, compile func() error) error {
	saved := fc.ml
	fc.ml = on
	err := compile()
	fc.ml = saved
	return err
}

// attrLine is the line of an attribute load or method call on x.Name:
// the name's line when the attribute spans lines (CPython 3.12's
// update_start_location_to_match_attr).
func attrLine(x *syntax.DotExpr) int {
	return line(x.Name.NamePos)
}

// isConstExpr reports whether CPython's AST optimizer folds x into one
// constant (one LOAD_CONST at x's line).
func isConstExpr(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.Literal:
		return true
	case *syntax.UnaryExpr:
		return x.Op != syntax.NOT && isConstExpr(x.X)
	case *syntax.BinaryExpr:
		return x.Op != syntax.AND && x.Op != syntax.OR && isConstExpr(x.X) && isConstExpr(x.Y)
	case *syntax.TupleExpr:
		for _, e := range x.Elts {
			if !isConstExpr(e) {
				return false
			}
		}
		return true
	}
	return false
}

// exprML compiles x in multi-line mode: a subtree on one line (or folded
// into a constant) is marked once before it runs and compiled without
// marks; other nodes place their own marks.
func (fc *fnCompiler) exprML(x syntax.Expr) (exprFn, error) {
	ln := fc.exprLine(x)
	leaf := isConstExpr(x)
	switch x := x.(type) {
	case *syntax.Ident, *syntax.Literal:
		leaf = true
	case *syntax.ListExpr:
		leaf = constDisplay(x.Elts)
	case *syntax.SetExpr:
		leaf = constDisplay(x.Elts)
	case *syntax.DictExpr:
		leaf = len(x.Entries) == 0
	}
	if leaf || !spansLines(ln, x) {
		var f exprFn
		err := fc.multiLine(false, func() (err error) {
			f, err = fc.exprNode(x)
			return err
		})
		if err != nil {
			return nil, err
		}
		return preMark(ln, f), nil
	}
	return fc.exprNode(x)
}

// constDisplay reports whether a list or set display of these elements is
// built from one folded constant (more than two constants, or none).
func constDisplay(elts []syntax.Expr) bool {
	if len(elts) == 0 {
		return true
	}
	if len(elts) <= 2 {
		return false
	}
	for _, e := range elts {
		if !isConstExpr(e) {
			return false
		}
	}
	return true
}
