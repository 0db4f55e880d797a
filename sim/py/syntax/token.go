package syntax

import "strconv"

// Token is a lexical token kind. The parser's AST reuses tokens for operators
// (BinaryExpr.Op, UnaryExpr.Op, Comparison.Op, AugAssignStmt.Op) and for
// literal kinds (Literal.Token), so the evaluator switches on one enum.
type Token int8

// Token kinds.
const (
	ILLEGAL Token = iota
	EOF

	NEWLINE
	INDENT
	OUTDENT

	// Tokens with values.
	IDENT   // x
	INT     // 123, 0x1f, 1_000
	FLOAT   // 1.5, 1e-3, .5
	IMAG    // 1j, 2.5J
	STRING  // "abc", r'x', u"y", """..."""
	BYTES   // b"abc", rb'x'
	FSTRING // f"{x}", rf'{y}'

	// Punctuation and operators.
	PLUS          // +
	MINUS         // -
	STAR          // *
	SLASH         // /
	SLASHSLASH    // //
	PERCENT       // %
	STARSTAR      // **
	AT            // @
	TILDE         // ~
	AMP           // &
	PIPE          // |
	CIRCUMFLEX    // ^
	LTLT          // <<
	GTGT          // >>
	DOT           // .
	COMMA         // ,
	SEMI          // ;
	COLON         // :
	ARROW         // ->
	WALRUS        // :=
	ELLIPSIS      // ...
	EQ            // =
	LPAREN        // (
	RPAREN        // )
	LBRACK        // [
	RBRACK        // ]
	LBRACE        // {
	RBRACE        // }
	LT            // <
	GT            // >
	LE            // <=
	GE            // >=
	EQL           // ==
	NEQ           // !=
	PLUS_EQ       // +=
	MINUS_EQ      // -=
	STAR_EQ       // *=
	SLASH_EQ      // /=
	SLASHSLASH_EQ // //=
	PERCENT_EQ    // %=
	STARSTAR_EQ   // **=
	AT_EQ         // @=
	AMP_EQ        // &=
	PIPE_EQ       // |=
	CIRCUMFLEX_EQ // ^=
	LTLT_EQ       // <<=
	GTGT_EQ       // >>=
	BANG          // ! (only inside f-string replacement fields)

	// Keywords.
	AND
	AS
	ASSERT
	ASYNC
	AWAIT
	BREAK
	CLASS
	CONTINUE
	DEF
	DEL
	ELIF
	ELSE
	EXCEPT
	FALSE
	FINALLY
	FOR
	FROM
	GLOBAL
	IF
	IMPORT
	IN
	IS
	LAMBDA
	NONE
	NONLOCAL
	NOT
	OR
	PASS
	RAISE
	RETURN
	TRUE
	TRY
	WHILE
	WITH
	YIELD

	// Two-word comparison operators, produced by the parser (never by the
	// scanner) for Comparison.Op.
	NOT_IN // not in
	IS_NOT // is not

	maxToken
)

var tokenNames = [...]string{
	ILLEGAL:       "illegal token",
	EOF:           "end of file",
	NEWLINE:       "newline",
	INDENT:        "indent",
	OUTDENT:       "outdent",
	IDENT:         "identifier",
	INT:           "int literal",
	FLOAT:         "float literal",
	IMAG:          "imaginary literal",
	STRING:        "string literal",
	BYTES:         "bytes literal",
	FSTRING:       "f-string literal",
	PLUS:          "+",
	MINUS:         "-",
	STAR:          "*",
	SLASH:         "/",
	SLASHSLASH:    "//",
	PERCENT:       "%",
	STARSTAR:      "**",
	AT:            "@",
	TILDE:         "~",
	AMP:           "&",
	PIPE:          "|",
	CIRCUMFLEX:    "^",
	LTLT:          "<<",
	GTGT:          ">>",
	DOT:           ".",
	COMMA:         ",",
	SEMI:          ";",
	COLON:         ":",
	ARROW:         "->",
	WALRUS:        ":=",
	ELLIPSIS:      "...",
	EQ:            "=",
	LPAREN:        "(",
	RPAREN:        ")",
	LBRACK:        "[",
	RBRACK:        "]",
	LBRACE:        "{",
	RBRACE:        "}",
	LT:            "<",
	GT:            ">",
	LE:            "<=",
	GE:            ">=",
	EQL:           "==",
	NEQ:           "!=",
	PLUS_EQ:       "+=",
	MINUS_EQ:      "-=",
	STAR_EQ:       "*=",
	SLASH_EQ:      "/=",
	SLASHSLASH_EQ: "//=",
	PERCENT_EQ:    "%=",
	STARSTAR_EQ:   "**=",
	AT_EQ:         "@=",
	AMP_EQ:        "&=",
	PIPE_EQ:       "|=",
	CIRCUMFLEX_EQ: "^=",
	LTLT_EQ:       "<<=",
	GTGT_EQ:       ">>=",
	BANG:          "!",
	AND:           "and",
	AS:            "as",
	ASSERT:        "assert",
	ASYNC:         "async",
	AWAIT:         "await",
	BREAK:         "break",
	CLASS:         "class",
	CONTINUE:      "continue",
	DEF:           "def",
	DEL:           "del",
	ELIF:          "elif",
	ELSE:          "else",
	EXCEPT:        "except",
	FALSE:         "False",
	FINALLY:       "finally",
	FOR:           "for",
	FROM:          "from",
	GLOBAL:        "global",
	IF:            "if",
	IMPORT:        "import",
	IN:            "in",
	IS:            "is",
	LAMBDA:        "lambda",
	NONE:          "None",
	NONLOCAL:      "nonlocal",
	NOT:           "not",
	OR:            "or",
	PASS:          "pass",
	RAISE:         "raise",
	RETURN:        "return",
	TRUE:          "True",
	TRY:           "try",
	WHILE:         "while",
	WITH:          "with",
	YIELD:         "yield",
	NOT_IN:        "not in",
	IS_NOT:        "is not",
}

// String returns the token's source spelling for operators and keywords, and
// a description ("identifier", "int literal") for the others.
func (t Token) String() string {
	if t >= 0 && int(t) < len(tokenNames) && tokenNames[t] != "" {
		return tokenNames[t]
	}
	return "token(" + strconv.Itoa(int(t)) + ")"
}

// IsKeyword reports whether t is a Python keyword (including the soft
// constants None, True, False).
func (t Token) IsKeyword() bool { return t >= AND && t <= YIELD }

// AugOp returns the binary operator of an augmented-assignment token
// (PLUS for PLUS_EQ, ...), or ILLEGAL if t is not one.
func (t Token) AugOp() Token {
	switch t {
	case PLUS_EQ:
		return PLUS
	case MINUS_EQ:
		return MINUS
	case STAR_EQ:
		return STAR
	case SLASH_EQ:
		return SLASH
	case SLASHSLASH_EQ:
		return SLASHSLASH
	case PERCENT_EQ:
		return PERCENT
	case STARSTAR_EQ:
		return STARSTAR
	case AT_EQ:
		return AT
	case AMP_EQ:
		return AMP
	case PIPE_EQ:
		return PIPE
	case CIRCUMFLEX_EQ:
		return CIRCUMFLEX
	case LTLT_EQ:
		return LTLT
	case GTGT_EQ:
		return GTGT
	}
	return ILLEGAL
}

// keywords maps the spelling of every keyword to its token.
var keywords = map[string]Token{
	"and":      AND,
	"as":       AS,
	"assert":   ASSERT,
	"async":    ASYNC,
	"await":    AWAIT,
	"break":    BREAK,
	"class":    CLASS,
	"continue": CONTINUE,
	"def":      DEF,
	"del":      DEL,
	"elif":     ELIF,
	"else":     ELSE,
	"except":   EXCEPT,
	"False":    FALSE,
	"finally":  FINALLY,
	"for":      FOR,
	"from":     FROM,
	"global":   GLOBAL,
	"if":       IF,
	"import":   IMPORT,
	"in":       IN,
	"is":       IS,
	"lambda":   LAMBDA,
	"None":     NONE,
	"nonlocal": NONLOCAL,
	"not":      NOT,
	"or":       OR,
	"pass":     PASS,
	"raise":    RAISE,
	"return":   RETURN,
	"True":     TRUE,
	"try":      TRY,
	"while":    WHILE,
	"with":     WITH,
	"yield":    YIELD,
}
