package syntax

import "math/big"

// Position is a place in the source: Line and Col are 1-based; Col counts
// Unicode code points from the start of the line, as CPython's SyntaxError
// offset does. The zero Position means "unknown".
type Position struct {
	Line int32
	Col  int32
}

// IsValid reports whether p is a known position.
func (p Position) IsValid() bool { return p.Line > 0 }

// Before reports whether p comes strictly before q.
func (p Position) Before(q Position) bool {
	return p.Line < q.Line || p.Line == q.Line && p.Col < q.Col
}

// String formats p as "line:col".
func (p Position) String() string {
	return itoa32(p.Line) + ":" + itoa32(p.Col)
}

// Node is any element of the syntax tree. Span returns the position of the
// node's first character and the position just after its last character
// (End may be approximate for compound statements: the end of their last
// body statement).
type Node interface {
	Span() (start, end Position)
}

// Expr is an expression node.
type Expr interface {
	Node
	exprNode()
}

// Stmt is a statement node.
type Stmt interface {
	Node
	stmtNode()
}

// File is a parsed source file.
type File struct {
	Path  string
	Src   []byte // the source text, for tracebacks that show source lines
	Stmts []Stmt
	// Parens holds the outermost parentheses around each parenthesized
	// expression other than a tuple (whose span includes them). Spans
	// exclude them, as Python's AST does, but CPython's position of a node
	// that starts or ends with a parenthesized operand includes them, e.g.
	// `(a) + b` starts at the '(' (tracebacks underline from there).
	Parens map[Expr]ParenSpan
}

// ParenSpan is the position of a pair of parentheses: Lparen is the '(',
// End is just after the ')'.
type ParenSpan struct {
	Lparen, End Position
}

// Span covers the whole file.
func (f *File) Span() (start, end Position) {
	if len(f.Stmts) == 0 {
		return Position{1, 1}, Position{1, 1}
	}
	start, _ = f.Stmts[0].Span()
	_, end = f.Stmts[len(f.Stmts)-1].Span()
	return start, end
}

// ---- statements -----------------------------------------------------------

// ExprStmt is an expression evaluated for its effect: `f(x)`.
type ExprStmt struct {
	X Expr
}

// AssignStmt is `t1 = t2 = ... = value`. Targets holds every target left to
// right (one for a plain assignment); a target is an *Ident, *DotExpr,
// *IndexExpr, or a *TupleExpr / *ListExpr of targets, possibly containing one
// *StarredExpr.
type AssignStmt struct {
	Targets []Expr
	EqPos   Position // position of the first '='
	Value   Expr     // may be a *TupleExpr without parentheses
}

// AugAssignStmt is `target op= value`. Op is the augmented token (PLUS_EQ,
// ...); Op.AugOp() gives the binary operator. Target is an *Ident, *DotExpr
// or *IndexExpr.
type AugAssignStmt struct {
	Target Expr
	OpPos  Position
	Op     Token
	Value  Expr
}

// AnnAssignStmt is an annotated assignment `target: annotation [= value]`.
// Value is nil for a bare annotation.
// Simple is true when the target is a plain unparenthesized name.
type AnnAssignStmt struct {
	Target     Expr
	Colon      Position
	Annotation Expr
	Value      Expr // nil if absent
	Simple     bool
}

// DelStmt is `del t1, t2`.
type DelStmt struct {
	Del     Position
	Targets []Expr
}

// PassStmt is `pass`.
type PassStmt struct {
	Pass Position
}

// BreakStmt is `break`.
type BreakStmt struct {
	Break Position
}

// ContinueStmt is `continue`.
type ContinueStmt struct {
	Continue Position
}

// ReturnStmt is `return [value]`.
type ReturnStmt struct {
	Return Position
	Result Expr // nil for a bare return; may be a *TupleExpr
}

// RaiseStmt is `raise [exc [from cause]]`.
type RaiseStmt struct {
	Raise Position
	Exc   Expr // nil for a bare re-raise
	Cause Expr // nil if no 'from'
}

// AssertStmt is `assert test [, msg]`.
type AssertStmt struct {
	Assert Position
	Test   Expr
	Msg    Expr // nil if absent
}

// GlobalStmt is `global a, b`.
type GlobalStmt struct {
	Global Position
	Names  []*Ident
}

// NonlocalStmt is `nonlocal a, b`.
type NonlocalStmt struct {
	Nonlocal Position
	Names    []*Ident
}

// ImportAlias is one `a.b.c [as d]` item of an import statement. In
// ImportStmt, Path is the dotted module path; in ImportFromStmt it is a
// single name.
type ImportAlias struct {
	Path []*Ident
	As   *Ident // nil if no 'as'
}

// ImportStmt is `import a.b as c, d`.
type ImportStmt struct {
	Import Position
	Names  []*ImportAlias
}

// ImportFromStmt is `from module import x, y as z` or `from module import *`.
// Relative imports (`from . import x`) are rejected by the parser, so Module
// is never empty.
type ImportFromStmt struct {
	From   Position
	Module []*Ident
	Names  []*ImportAlias // nil when Star is set
	Star   bool           // from m import *
	Rparen Position       // position of ')' when the names were parenthesized, else zero
}

// IfStmt is `if cond: body [else: else]`. An `elif` is an IfStmt that is the
// only element of its parent's Else, with Elif set.
type IfStmt struct {
	If      Position // position of 'if' or 'elif'
	Elif    bool     // this node was written as 'elif'
	Cond    Expr
	Body    []Stmt
	ElsePos Position // position of 'else' or of the following 'elif'; zero if none
	Else    []Stmt
}

// ForStmt is `for vars in x: body [else: else]`.
type ForStmt struct {
	For     Position
	Vars    Expr // a target, as in AssignStmt
	X       Expr // may be a *TupleExpr without parentheses
	Body    []Stmt
	ElsePos Position
	Else    []Stmt
}

// WhileStmt is `while cond: body [else: else]`.
type WhileStmt struct {
	While   Position
	Cond    Expr
	Body    []Stmt
	ElsePos Position
	Else    []Stmt
}

// WithItem is one `context [as vars]` item of a with statement.
type WithItem struct {
	Context Expr
	Vars    Expr // nil if no 'as'; a target as in AssignStmt
}

// WithStmt is `with a as b, c: body` (items may be parenthesized).
type WithStmt struct {
	With  Position
	Items []*WithItem
	Body  []Stmt
}

// ExceptHandler is one `except [type [as name]]: body` clause.
type ExceptHandler struct {
	Except Position
	Type   Expr   // nil for a bare except; may be a *TupleExpr
	Name   *Ident // nil if no 'as'
	Body   []Stmt
}

// TryStmt is `try: body except...: ... [else: ...] [finally: ...]`.
type TryStmt struct {
	Try        Position
	Body       []Stmt
	Handlers   []*ExceptHandler
	ElsePos    Position
	Else       []Stmt
	FinallyPos Position
	Finally    []Stmt
}

// Decorator is `@expr` before a def or class.
type Decorator struct {
	At Position
	X  Expr
}

// ParamKind says how a parameter binds arguments.
type ParamKind uint8

// Parameter kinds, in the order they may appear.
const (
	ParamPositional ParamKind = iota // a or a=1: positional or keyword
	ParamPosOnly                     // a parameter before '/'
	ParamVarArgs                     // *args
	ParamKwOnly                      // a parameter after '*' or '*args'
	ParamKwArgs                      // **kwargs
)

// Param is one parameter of a def or lambda. A bare `*` and a `/` are not
// parameters: they show as the kinds of the parameters around them.
type Param struct {
	Star       Position // position of '*' or '**' for VarArgs/KwArgs, else zero
	Kind       ParamKind
	Name       *Ident
	Annotation Expr // nil if absent (always nil in lambdas)
	Default    Expr // nil if absent
}

// DefStmt is a function definition.
type DefStmt struct {
	Decorators []*Decorator
	Def        Position
	Name       *Ident
	Params     []*Param
	Returns    Expr // the '-> T' annotation, nil if absent
	Body       []Stmt
}

// ClassStmt is a class definition. Bases holds the arguments between the
// parentheses in source order, as CallExpr.Args does: base expressions,
// *KeywordArg (metaclass=...), *StarredExpr and *DoubleStarredExpr.
type ClassStmt struct {
	Decorators []*Decorator
	Class      Position
	Name       *Ident
	Lparen     Position // zero if no parentheses
	Bases      []Expr
	Rparen     Position
	Body       []Stmt
}

// ---- expressions ----------------------------------------------------------

// Ident is a name.
type Ident struct {
	NamePos Position
	Name    string
	// Src is the name as written when the compiler renamed it (private
	// name mangling: `__x` in class C is `_C__x`); "" when Name is the
	// source text. Spans and error carets follow the source text.
	Src string
}

// Written returns the name as it appears in the source.
func (x *Ident) Written() string {
	if x.Src != "" {
		return x.Src
	}
	return x.Name
}

// Literal is a constant: Token is INT, FLOAT, IMAG, STRING, BYTES, NONE,
// TRUE, FALSE or ELLIPSIS. Adjacent string (or bytes) literals are
// concatenated into one Literal.
type Literal struct {
	Token    Token
	ValuePos Position
	EndPos   Position
	Raw      string   // source text of the (first) token
	Int      int64    // INT, when it fits in int64 (BigInt == nil)
	BigInt   *big.Int // INT, when it does not fit in int64; nil otherwise
	Float    float64  // FLOAT; the imaginary part of IMAG
	Str      string   // STRING (decoded text) and BYTES (decoded bytes)
}

// FString is a formatted string literal (or a concatenation of string
// literals that contains at least one f-string). Parts alternate freely
// between literal text and replacement fields; expressions are parsed, with
// their own positions, so the evaluator never re-parses.
//
// The debug form `f"{x=}"` is lowered as CPython does: a literal part with
// the expression's source text and "=" (whitespace kept), then a field with
// Conversion 'r' unless a conversion or format spec was given; Debug marks it.
type FString struct {
	Start Position
	End   Position
	Parts []*FStringPart
}

// FStringPart is literal text (Expr == nil) or a replacement field.
type FStringPart struct {
	Pos        Position // start of the literal text, or of '{'
	End        Position // a field: just after its closing '}'
	Lit        string   // decoded literal text ('{{' already '{'); Expr == nil
	Expr       Expr     // the field's expression (may be a *TupleExpr)
	Conversion byte     // 'r', 's', 'a' or 0
	Spec       *FString // format spec, itself possibly holding fields; nil if none
	Debug      bool     // written as {expr=}
}

// UnaryExpr is `op x` with Op one of PLUS, MINUS, TILDE, NOT.
type UnaryExpr struct {
	OpPos Position
	Op    Token
	X     Expr
}

// BinaryExpr is `x op y` for the arithmetic, bitwise and matrix operators
// (PLUS ... GTGT, AT) and the short-circuit operators AND and OR.
type BinaryExpr struct {
	X     Expr
	OpPos Position
	Op    Token
	Y     Expr
}

// Comparison is one `op y` link of a comparison chain. Op is one of LT, GT,
// LE, GE, EQL, NEQ, IN, NOT_IN, IS, IS_NOT.
type Comparison struct {
	OpPos Position
	Op    Token
	Y     Expr
}

// CompareExpr is a comparison chain `x op1 y1 op2 y2 ...` (at least one link).
type CompareExpr struct {
	X   Expr
	Ops []Comparison
}

// CondExpr is `then if cond else else_`.
type CondExpr struct {
	Then    Expr
	If      Position
	Cond    Expr
	ElsePos Position
	Else    Expr
}

// NamedExpr is the walrus `name := value`.
type NamedExpr struct {
	Target *Ident
	OpPos  Position
	Value  Expr
}

// YieldExpr is `yield`, `yield x`, `yield a, b` or `yield from x`. A
// function whose body holds one (outside nested scopes) is a generator
// function.
type YieldExpr struct {
	Yield Position // the 'yield' keyword
	End   Position // just after 'yield' ('from' when From)
	From  bool     // yield from
	Value Expr     // nil for a bare yield
}

// LambdaExpr is `lambda params: body`.
type LambdaExpr struct {
	Lambda Position
	Params []*Param
	Body   Expr
}

// CallExpr is `fn(args)`. Args holds the arguments in source order: plain
// expressions, *StarredExpr (*a), *KeywordArg (k=v) and *DoubleStarredExpr
// (**kw). A lone generator argument `f(x for x in y)` is a *Comprehension.
type CallExpr struct {
	Fn     Expr
	Lparen Position
	Args   []Expr
	Rparen Position
}

// KeywordArg is `name=value` inside a call or class bases.
type KeywordArg struct {
	Name  *Ident
	Value Expr
}

// StarredExpr is `*x` in a call, a display, or an assignment target.
type StarredExpr struct {
	Star Position
	X    Expr
}

// DoubleStarredExpr is `**x` in a call's arguments.
type DoubleStarredExpr struct {
	StarStar Position
	X        Expr
}

// DotExpr is attribute access `x.name`.
type DotExpr struct {
	X    Expr
	Dot  Position
	Name *Ident
}

// IndexExpr is a subscript `x[index]`. Index is an expression, a
// *SliceExpr, or a *TupleExpr (without parentheses) of those for several
// dimensions: `x[:, 0]`, `x[..., None]`.
type IndexExpr struct {
	X      Expr
	Lbrack Position
	Index  Expr
	Rbrack Position
}

// SliceExpr is `lo:hi:step` inside a subscript; missing parts are nil.
type SliceExpr struct {
	Lo    Expr
	Colon Position // position of the first ':'
	Hi    Expr
	Step  Expr
	End   Position
}

// TupleExpr is a tuple display `a, b` or `(a, b)` or `()`. Lparen and
// Rparen are zero when the tuple has no parentheses of its own.
type TupleExpr struct {
	Lparen Position
	Elts   []Expr
	Rparen Position
}

// ListExpr is `[a, b, *c]`.
type ListExpr struct {
	Lbrack Position
	Elts   []Expr
	Rbrack Position
}

// SetExpr is `{a, b, *c}` (never empty: `{}` is a dict).
type SetExpr struct {
	Lbrace Position
	Elts   []Expr
	Rbrace Position
}

// DictEntry is `key: value` in a dict display or comprehension, or `**value`
// (Key == nil) in a display.
type DictEntry struct {
	Key   Expr
	Colon Position // position of ':' or of '**'
	Value Expr
}

// DictExpr is `{k: v, **d}`.
type DictExpr struct {
	Lbrace  Position
	Entries []*DictEntry
	Rbrace  Position
}

// ComprehensionKind says which display a comprehension builds.
type ComprehensionKind uint8

// Comprehension kinds.
const (
	ListComp ComprehensionKind = iota // [x for ...]
	SetComp                           // {x for ...}
	DictComp                          // {k: v for ...}
	GenExp                            // (x for ...)
)

// Comprehension is a list, set or dict comprehension or a generator
// expression. Body is the element expression (a *DictEntry for DictComp);
// Clauses are *ForClause and *IfClause in source order, the first a
// *ForClause. For a generator that is a call's sole argument, Lparen and
// Rparen are the call's parentheses.
type Comprehension struct {
	Kind    ComprehensionKind
	Lparen  Position // '[', '{' or '('
	Body    Node     // Expr, or *DictEntry for DictComp
	Clauses []Node
	Rparen  Position
}

// ForClause is `for vars in x` inside a comprehension.
type ForClause struct {
	For  Position
	Vars Expr
	In   Position
	X    Expr
}

// IfClause is `if cond` inside a comprehension.
type IfClause struct {
	If   Position
	Cond Expr
}

// ---- marker methods -------------------------------------------------------

func (*ExprStmt) stmtNode()       {}
func (*AssignStmt) stmtNode()     {}
func (*AugAssignStmt) stmtNode()  {}
func (*AnnAssignStmt) stmtNode()  {}
func (*DelStmt) stmtNode()        {}
func (*PassStmt) stmtNode()       {}
func (*BreakStmt) stmtNode()      {}
func (*ContinueStmt) stmtNode()   {}
func (*ReturnStmt) stmtNode()     {}
func (*RaiseStmt) stmtNode()      {}
func (*AssertStmt) stmtNode()     {}
func (*GlobalStmt) stmtNode()     {}
func (*NonlocalStmt) stmtNode()   {}
func (*ImportStmt) stmtNode()     {}
func (*ImportFromStmt) stmtNode() {}
func (*IfStmt) stmtNode()         {}
func (*ForStmt) stmtNode()        {}
func (*WhileStmt) stmtNode()      {}
func (*WithStmt) stmtNode()       {}
func (*TryStmt) stmtNode()        {}
func (*DefStmt) stmtNode()        {}
func (*ClassStmt) stmtNode()      {}

func (*Ident) exprNode()             {}
func (*Literal) exprNode()           {}
func (*FString) exprNode()           {}
func (*UnaryExpr) exprNode()         {}
func (*BinaryExpr) exprNode()        {}
func (*CompareExpr) exprNode()       {}
func (*CondExpr) exprNode()          {}
func (*NamedExpr) exprNode()         {}
func (*YieldExpr) exprNode()         {}
func (*LambdaExpr) exprNode()        {}
func (*CallExpr) exprNode()          {}
func (*KeywordArg) exprNode()        {}
func (*StarredExpr) exprNode()       {}
func (*DoubleStarredExpr) exprNode() {}
func (*DotExpr) exprNode()           {}
func (*IndexExpr) exprNode()         {}
func (*SliceExpr) exprNode()         {}
func (*TupleExpr) exprNode()         {}
func (*ListExpr) exprNode()          {}
func (*SetExpr) exprNode()           {}
func (*DictExpr) exprNode()          {}
func (*Comprehension) exprNode()     {}
