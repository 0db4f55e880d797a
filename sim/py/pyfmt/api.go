package pyfmt

import (
	"fmt"
	"math/big"
)

// Error is a Python exception produced by this package: Type is the
// exception class name ("ValueError", "TypeError", "OverflowError",
// "ZeroDivisionError", "KeyError", "IndexError") and Msg is CPython's exact
// message. The interpreter raises it as Type(Msg).
type Error struct {
	Type string
	Msg  string
}

// Error returns "Type: Msg" like a Python traceback's last line.
func (e *Error) Error() string { return e.Type + ": " + e.Msg }

// FloatRepr returns repr(f) (which equals str(f)) for a Python float:
// shortest round-trip digits, scientific notation when the decimal exponent
// is < -4 or >= 16, and "inf", "-inf", "nan", "-0.0".
func FloatRepr(f float64) string { return floatRepr(f) }

// IntStr returns str(i) for a Python int. It fails with CPython's
// ValueError when i has more decimal digits than MaxStrDigits allows.
func IntStr(i *big.Int) (string, error) { return intDecimal(i) }

// IntBase returns bin(i), oct(i) or hex(i) (base 2, 8 or 16), e.g. "-0x1f".
// Any other base yields "".
func IntBase(i *big.Int, base int) string { return intBase(i, base) }

// FormatInt returns format(i, spec) for a Python int.
func FormatInt(i *big.Int, spec string) (string, error) {
	return formatInt(i, spec, "int", func() (string, error) { return intDecimal(i) })
}

// FormatInt64 returns format(i, spec) for a Python int that fits in int64.
func FormatInt64(i int64, spec string) (string, error) {
	return FormatInt(big.NewInt(i), spec)
}

// FormatBool returns format(b, spec): "True"/"False" for an empty spec
// (str() semantics), otherwise b is formatted as the int 1 or 0 with error
// messages naming type 'bool'.
func FormatBool(b bool, spec string) (string, error) {
	v, str := int64(0), "False"
	if b {
		v, str = 1, "True"
	}
	return formatInt(big.NewInt(v), spec, "bool", func() (string, error) { return str, nil })
}

// FormatFloat returns format(f, spec) for a Python float.
func FormatFloat(f float64, spec string) (string, error) { return formatFloat(f, spec) }

// FormatString returns format(s, spec) for a Python str.
func FormatString(s string, spec string) (string, error) { return formatString(s, spec) }

// Spec is a parsed format specification
// [[fill]align][sign][z][#][0][width][grouping][.precision][type].
// Align, Sign and Grouping are 0 when not given; Width and Precision -1.
type Spec struct {
	Fill      rune // fill character; ' ' when not given
	Align     byte // one of '<' '>' '^' '=' or 0 when not given
	Sign      byte // one of '+' '-' ' ' or 0 when not given
	NoNegZero bool // 'z': coerce negative zero to positive (floats)
	Alt       bool // '#': alternate form
	Width     int  // minimum width, -1 when not given
	Grouping  byte // ',' or '_' or 0 when not given
	Precision int  // -1 when not given
	Type      rune // presentation type; the default type when not given
}

// ParseSpec parses a format spec the way CPython does before formatting a
// value of Python type typeName ("int", "float", "str", ...; only used in
// error messages) whose default presentation type is defaultType ('d' for
// int, 0 for float, 's' for str). A '0' before the width sets Fill '0' and,
// for numbers without an explicit alignment, Align '='; the grouping/type
// compatibility checks are done here as in CPython.
func ParseSpec(spec, typeName string, defaultType rune) (Spec, error) {
	return parseSpec(spec, typeName, defaultType)
}

// Arg is one operand of printf-style formatting (str % args). The
// interpreter implements it for its values. Errors returned by its methods
// are propagated unchanged.
type Arg interface {
	// TypeName is the Python type name used in error messages ("float").
	TypeName() string
	// Str returns str(v).
	Str() (string, error)
	// Repr returns repr(v); %a derives ascii(v) from it.
	Repr() (string, error)
	// StrValue returns the value and true when v is a str instance (for %c).
	StrValue() (string, bool)
	// IntValue returns the value and true when v is an int instance,
	// bool and int subclasses included (for '*' width and precision).
	IntValue() (*big.Int, bool)
	// AsInt converts like int(v) for %d %i %u. ok is false (with a nil
	// error) when v is not a number or int(v) raises TypeError; a float
	// is truncated, and NaN/infinity must return the ValueError/OverflowError
	// int() raises.
	AsInt() (n *big.Int, ok bool, err error)
	// AsIndex converts like operator.index(v) for %x %X %o %c; ok is false
	// when v has no __index__ (e.g. float).
	AsIndex() (n *big.Int, ok bool, err error)
	// AsFloat converts like float(v) via __float__ or __index__ for
	// %e %E %f %F %g %G; ok is false when v is not a real number.
	AsFloat() (f float64, ok bool, err error)
}

// Mapping is the right operand of str % mapping, used by %(key)s.
type Mapping interface {
	// GetItem returns mapping[key] or the interpreter's KeyError.
	GetItem(key string) (Arg, error)
}

// Percent returns format % operand. If the operand is a tuple pass its
// items with tuple=true; otherwise pass the single operand as args[0] with
// tuple=false. Pass mapping non-nil when the operand supports __getitem__
// and is neither a tuple nor a str (CPython's PyMapping_Check): it enables
// %(key)s and suppresses "not all arguments converted".
func Percent(format string, args []Arg, tuple bool, mapping Mapping) (string, error) {
	return percentFormat(format, args, tuple, mapping)
}

// Piece is one step of a str.format template, as yielded by
// string.Formatter().parse: literal text followed by an optional field.
type Piece struct {
	Literal    string // text with "{{" and "}}" already unescaped
	HasField   bool   // false for a trailing literal-only piece
	FieldName  string // raw field name, e.g. "0", "", "a.b[c]"
	Conversion rune   // 0, or the character after '!' (validated at render)
	Spec       string // raw format spec; may contain nested "{...}" fields
}

// ParseFormatString splits a str.format template into pieces. On a syntax
// error it returns the pieces that precede the faulty one together with the
// error (CPython parses lazily while rendering, so those pieces are
// rendered, and may raise, before the syntax error is raised).
func ParseFormatString(s string) ([]Piece, error) { return parseFormatString(s) }

// FieldKey is an argument selector or item key in a field name: an index
// when IsIndex is true (digits only), otherwise a string key.
type FieldKey struct {
	IsIndex bool
	Index   int
	Name    string
}

// FieldPart is one accessor after the first key in a field name:
// ".name" (IsAttr true, Key.Name holds the attribute) or "[key]".
type FieldPart struct {
	IsAttr bool
	Key    FieldKey
}

// FieldName is a parsed field name. Auto is true for an empty first part
// ("{}" or "{.x}"), whose index is assigned by automatic numbering.
type FieldName struct {
	Auto  bool
	First FieldKey
	Parts []FieldPart
}

// SplitFieldName parses a raw field name such as "0", "name.attr[2]".
func SplitFieldName(name string) (FieldName, error) { return splitFieldName(name) }

// Resolver supplies the object model to Format: it looks up arguments,
// attributes and items, applies conversions and formats values. V is the
// interpreter's value type. Its errors are propagated unchanged.
type Resolver[V any] interface {
	// Arg returns the positional argument key.Index (IsIndex) or the
	// keyword argument key.Name. A missing index must fail with
	// IndexOutOfRange(key.Index), a missing name with KeyError(repr(name));
	// str.format_map must fail positional keys with ValueError "Format
	// string contains positional fields".
	Arg(key FieldKey) (V, error)
	// Attr returns getattr(v, name).
	Attr(v V, name string) (V, error)
	// Item returns v[key] (an int key when key.IsIndex, else a str).
	Item(v V, key FieldKey) (V, error)
	// Convert applies conversion 'r', 's' or 'a'.
	Convert(v V, conv rune) (V, error)
	// Format returns format(v, spec).
	Format(v V, spec string) (string, error)
}

// Format implements str.format(*args, **kwargs) for template s: automatic
// and manual numbering, nested replacement fields in specs (two levels, as
// CPython), with CPython's exact errors and evaluation order.
func Format[V any](s string, r Resolver[V]) (string, error) {
	return formatTemplate([]rune(s), r, 2, &autoNumber{})
}

// IndexOutOfRange is the IndexError str.format raises when a positional
// field has no argument; Resolver.Arg implementations should return it.
func IndexOutOfRange(index int) *Error {
	return &Error{Type: "IndexError", Msg: fmt.Sprintf("Replacement index %d out of range for positional args tuple", index)}
}

// FStringPart is one element of a parsed f-string body: literal text, or a
// replacement field whose expression source the interpreter compiles.
type FStringPart struct {
	// Literal is source text between fields with "{{" and "}}" collapsed
	// but backslash escapes NOT decoded: the caller decodes them exactly as
	// for an ordinary (raw or non-raw) string literal. Empty for a field.
	Literal string
	// Expr is the expression source of a field ("" for a literal part).
	// CPython compiles it as if parenthesized, so newlines are allowed.
	Expr string
	// Offset is the byte offset of Expr within the body.
	Offset int
	// Debug is, for "{expr=}", the expression text with its spaces and
	// the '=' ("x = "). ParseFString also appends it to the preceding
	// literal part, as CPython does, so callers need not emit it.
	Debug string
	// Conversion is 0, 'r', 's' or 'a'. For a Debug field without a
	// conversion and without a spec, CPython uses 'r'; this is set here.
	Conversion rune
	// HasSpec is true when a ':' introduced a format spec (even empty).
	HasSpec bool
	// Spec holds the parsed format spec: literal parts and nested fields.
	Spec []FStringPart
}

// ParseFString parses the body of an f-string (the raw source text between
// the quotes; raw reports an rf-string) into literal parts and fields,
// following CPython 3.11's f-string rules and SyntaxError messages
// (Error.Type "SyntaxError", e.g. "f-string: single '}' is not allowed").
func ParseFString(body string, raw bool) ([]FStringPart, error) {
	return parseFString(body, raw)
}

// Round returns round(x, ndigits) with CPython's correct rounding
// (round-half-even on the exact binary value): round(2.675, 2) == 2.67.
// It fails with OverflowError "rounded value too large to represent".
func Round(x float64, ndigits int) (float64, error) { return round(x, ndigits) }

// RoundToInt returns round(x) (no ndigits): the nearest int, ties to even,
// or CPython's ValueError/OverflowError for NaN and infinities.
func RoundToInt(x float64) (*big.Int, error) { return roundToInt(x) }

// RoundInt returns round(i, ndigits) for an int: i itself when ndigits >= 0,
// otherwise i rounded half-to-even to a multiple of 10**-ndigits.
func RoundInt(i *big.Int, ndigits int) *big.Int { return roundInt(i, ndigits) }

// FloatDivmod returns divmod(x, y) for floats with Python's sign rules.
func FloatDivmod(x, y float64) (q, r float64, err error) {
	if y == 0 {
		return 0, 0, &Error{Type: "ZeroDivisionError", Msg: "float divmod()"}
	}
	q, r = floatDivMod(x, y)
	return q, r, nil
}

// FloatFloorDiv returns x // y for floats.
func FloatFloorDiv(x, y float64) (float64, error) {
	if y == 0 {
		return 0, &Error{Type: "ZeroDivisionError", Msg: "float floor division by zero"}
	}
	q, _ := floatDivMod(x, y)
	return q, nil
}

// FloatMod returns x % y for floats; the result has the sign of y.
func FloatMod(x, y float64) (float64, error) {
	if y == 0 {
		return 0, &Error{Type: "ZeroDivisionError", Msg: "float modulo"}
	}
	return floatRem(x, y), nil
}

// ParseFloat implements float(s) for a str argument: surrounding
// whitespace, underscores between digits, "inf"/"nan" spellings, and
// CPython's ValueError "could not convert string to float: '...'".
func ParseFloat(s string) (float64, error) { return parseFloat(s) }

// ParseInt implements int(s, base) for a str argument (base 0 or 2..36),
// with CPython's ValueError "invalid literal for int() with base 10: '...'"
// and the MaxStrDigits limit.
func ParseInt(s string, base int) (*big.Int, error) { return parseInt(s, base) }

// StrRepr returns repr(s) for a Python str, choosing quotes and escapes as
// CPython does.
func StrRepr(s string) string { return strRepr(s) }

// ASCII returns ascii() of a repr text: non-ASCII characters escaped as
// \xhh, \uhhhh or \Uhhhhhhhh.
func ASCII(repr string) string { return asciiOf(repr) }

// MaxStrDigits is sys.get_int_max_str_digits(): the largest number of
// decimal digits IntStr, decimal int formatting and ParseInt accept for
// non-power-of-two bases; 0 disables the limit. CPython's default is 4300.
var MaxStrDigits = 4300
