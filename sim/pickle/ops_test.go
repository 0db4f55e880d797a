package pickle

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// walkOps lists the opcodes of a pickle, skipping their arguments, for tests
// that check which opcodes the encoder emits.
func walkOps(data []byte) ([]byte, error) {
	var ops []byte
	for i := 0; i < len(data); {
		op := data[i]
		i++
		ops = append(ops, op)
		n := 0
		lenField := func(size int) error {
			if i+size > len(data) {
				return fmt.Errorf("truncated at %d", i)
			}
			switch size {
			case 1:
				n = size + int(data[i])
			case 4:
				n = size + int(binary.LittleEndian.Uint32(data[i:]))
			case 8:
				n = size + int(binary.LittleEndian.Uint64(data[i:]))
			}
			return nil
		}
		var err error
		switch op {
		case opProto, opBinInt1, opBinPut, opBinGet:
			n = 1
		case opBinInt2:
			n = 2
		case opBinInt, opLongBinPut, opLongBinGet:
			n = 4
		case opBinFloat, opFrame:
			n = 8
		case opLong1, opShortBinUnicode, opShortBinBytes:
			err = lenField(1)
		case opLong4, opBinUnicode, opBinBytes:
			err = lenField(4)
		case opBinUnicode8, opBinBytes8, opByteArray8:
			err = lenField(8)
		case opGlobal:
			for k := 0; k < 2; k++ {
				j := bytes.IndexByte(data[i+n:], '\n')
				if j < 0 {
					return nil, fmt.Errorf("GLOBAL without newline at %d", i)
				}
				n += j + 1
			}
		case opStop:
			if i != len(data) {
				return nil, fmt.Errorf("STOP at %d before the end", i-1)
			}
		}
		if err != nil {
			return nil, err
		}
		i += n
		if i > len(data) {
			return nil, fmt.Errorf("argument of %s runs past the end", opName(op))
		}
	}
	return ops, nil
}
