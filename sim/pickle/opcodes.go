package pickle

// Pickle opcodes, named as in CPython's Lib/pickle.py. Only the ones this
// package writes or recognises are listed; anything else is reported by byte
// value.
const (
	opMark           byte = '('
	opStop           byte = '.'
	opPop            byte = '0'
	opPopMark        byte = '1'
	opDup            byte = '2'
	opFloat          byte = 'F'
	opInt            byte = 'I'
	opBinInt         byte = 'J'
	opBinInt1        byte = 'K'
	opLong           byte = 'L'
	opBinInt2        byte = 'M'
	opNone           byte = 'N'
	opPersID         byte = 'P'
	opBinPersID      byte = 'Q'
	opReduce         byte = 'R'
	opString         byte = 'S'
	opBinString      byte = 'T'
	opShortBinString byte = 'U'
	opUnicode        byte = 'V'
	opBinUnicode     byte = 'X'
	opAppend         byte = 'a'
	opBuild          byte = 'b'
	opGlobal         byte = 'c'
	opDict           byte = 'd'
	opEmptyDict      byte = '}'
	opAppends        byte = 'e'
	opGet            byte = 'g'
	opBinGet         byte = 'h'
	opInst           byte = 'i'
	opLongBinGet     byte = 'j'
	opList           byte = 'l'
	opEmptyList      byte = ']'
	opObj            byte = 'o'
	opPut            byte = 'p'
	opBinPut         byte = 'q'
	opLongBinPut     byte = 'r'
	opSetItem        byte = 's'
	opTuple          byte = 't'
	opEmptyTuple     byte = ')'
	opSetItems       byte = 'u'
	opBinFloat       byte = 'G'

	// Protocol 2.
	opProto    byte = 0x80
	opNewObj   byte = 0x81
	opExt1     byte = 0x82
	opExt2     byte = 0x83
	opExt4     byte = 0x84
	opTuple1   byte = 0x85
	opTuple2   byte = 0x86
	opTuple3   byte = 0x87
	opNewTrue  byte = 0x88
	opNewFalse byte = 0x89
	opLong1    byte = 0x8a
	opLong4    byte = 0x8b

	// Protocol 3.
	opBinBytes      byte = 'B'
	opShortBinBytes byte = 'C'

	// Protocol 4.
	opShortBinUnicode byte = 0x8c
	opBinUnicode8     byte = 0x8d
	opBinBytes8       byte = 0x8e
	opEmptySet        byte = 0x8f
	opAddItems        byte = 0x90
	opFrozenSet       byte = 0x91
	opNewObjEx        byte = 0x92
	opStackGlobal     byte = 0x93
	opMemoize         byte = 0x94
	opFrame           byte = 0x95

	// Protocol 5.
	opByteArray8     byte = 0x96
	opNextBuffer     byte = 0x97
	opReadOnlyBuffer byte = 0x98
)

// opNames maps opcode bytes to CPython's names, for error messages.
var opNames = map[byte]string{
	opMark: "MARK", opStop: "STOP", opPop: "POP", opPopMark: "POP_MARK", opDup: "DUP",
	opFloat: "FLOAT", opInt: "INT", opBinInt: "BININT", opBinInt1: "BININT1",
	opLong: "LONG", opBinInt2: "BININT2", opNone: "NONE", opPersID: "PERSID",
	opBinPersID: "BINPERSID", opReduce: "REDUCE", opString: "STRING",
	opBinString: "BINSTRING", opShortBinString: "SHORT_BINSTRING", opUnicode: "UNICODE",
	opBinUnicode: "BINUNICODE", opAppend: "APPEND", opBuild: "BUILD", opGlobal: "GLOBAL",
	opDict: "DICT", opEmptyDict: "EMPTY_DICT", opAppends: "APPENDS", opGet: "GET",
	opBinGet: "BINGET", opInst: "INST", opLongBinGet: "LONG_BINGET", opList: "LIST",
	opEmptyList: "EMPTY_LIST", opObj: "OBJ", opPut: "PUT", opBinPut: "BINPUT",
	opLongBinPut: "LONG_BINPUT", opSetItem: "SETITEM", opTuple: "TUPLE",
	opEmptyTuple: "EMPTY_TUPLE", opSetItems: "SETITEMS", opBinFloat: "BINFLOAT",
	opProto: "PROTO", opNewObj: "NEWOBJ", opExt1: "EXT1", opExt2: "EXT2", opExt4: "EXT4",
	opTuple1: "TUPLE1", opTuple2: "TUPLE2", opTuple3: "TUPLE3", opNewTrue: "NEWTRUE",
	opNewFalse: "NEWFALSE", opLong1: "LONG1", opLong4: "LONG4", opBinBytes: "BINBYTES",
	opShortBinBytes: "SHORT_BINBYTES", opShortBinUnicode: "SHORT_BINUNICODE",
	opBinUnicode8: "BINUNICODE8", opBinBytes8: "BINBYTES8", opEmptySet: "EMPTY_SET",
	opAddItems: "ADDITEMS", opFrozenSet: "FROZENSET", opNewObjEx: "NEWOBJ_EX",
	opStackGlobal: "STACK_GLOBAL", opMemoize: "MEMOIZE", opFrame: "FRAME",
	opByteArray8: "BYTEARRAY8", opNextBuffer: "NEXT_BUFFER", opReadOnlyBuffer: "READONLY_BUFFER",
}

// opName returns the CPython name of an opcode, or its hex value when unknown.
func opName(op byte) string {
	if n, ok := opNames[op]; ok {
		return n
	}
	return "unknown opcode 0x" + hexByte(op)
}

// hexByte formats b as two lowercase hex digits.
func hexByte(b byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[b>>4], digits[b&15]})
}
