package wasmsize

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

func uleb128(n int) []byte {
	var out []byte
	for {
		c := byte(n & 0x7f)
		n >>= 7
		if n == 0 {
			return append(out, c)
		}
		out = append(out, c|0x80)
	}
}

func section(id byte, body ...[]byte) []byte {
	b := bytes.Join(body, nil)
	return append(append([]byte{id}, uleb128(len(b))...), b...)
}

func vec(n int, items ...[]byte) []byte { return append(uleb128(n), bytes.Join(items, nil)...) }

func name(s string) []byte { return append(uleb128(len(s)), s...) }

// testModule has one imported function, three bodies named after Go
// functions and one data segment at 0x1000 holding a pcHeader at 0x1000 and
// a moduledata at 0x1100 whose types start at 0x1200 and rodata at 0x1300;
// another word at 0x1008 holds the pcHeader's address too (not a moduledata:
// the word after it is not the function names' address).
func testModule() []byte {
	imp := section(2, vec(1, name("go"), name("debug"), []byte{0}, uleb128(0)))
	bodies := section(10, vec(3,
		append(uleb128(4), 0, 1, 1, 11),
		append(uleb128(2), 0, 11),
		append(uleb128(300), make([]byte, 300)...)))
	mem := make([]byte, 0x400)
	copy(mem, pcHeaderMagic)
	binary.LittleEndian.PutUint64(mem[0x8:], 0x1000)        // a decoy
	binary.LittleEndian.PutUint64(mem[0x20:], 0x40)         // pcHeader.funcnameOffset
	binary.LittleEndian.PutUint64(mem[0x100:], 0x1000)      // moduledata.pcHeader
	binary.LittleEndian.PutUint64(mem[0x108:], 0x1040)      // moduledata.funcnametab
	binary.LittleEndian.PutUint64(mem[0x100+37*8:], 0x1200) // types
	binary.LittleEndian.PutUint64(mem[0x100+38*8:], 0x1300) // etypes
	binary.LittleEndian.PutUint64(mem[0x100+39*8:], 0x1300) // rodata
	copy(mem[0x300:], strings.Repeat("x", 0x100))
	seg := append([]byte{0, 0x41}, 0x80, 0x20, 0x0b) // i32.const 0x1000
	seg = append(append(seg, uleb128(len(mem))...), mem...)
	data := section(11, vec(1, seg))
	names := section(0, name("name"), []byte{1}, func() []byte {
		m := vec(3,
			append(uleb128(1), name("runtime.mallocgc")...),
			append(uleb128(2), name("runtime.gc")...),
			append(uleb128(3), name("github.com_gpumem_playground_sim_py.__Interp_.Run")...))
		return append(uleb128(len(m)), m...)
	}())
	return bytes.Join([][]byte{[]byte("\x00asm\x01\x00\x00\x00"), imp, bodies, data, names}, nil)
}

func TestParts(t *testing.T) {
	mod := testModule()
	m, err := Parse(mod)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, p := range m.PackageParts() {
		got[p.Name] = p.Raw
	}
	want := map[string]int{"runtime": 6, "github.com_gpumem_playground_sim_py": 300}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("package %q: %d B, want %d (all: %v)", k, got[k], v, got)
		}
	}
	if f := m.FuncParts(1); f[0].Name != "github.com_gpumem_playground_sim_py.__Interp_.Run" || f[0].Raw != 300 || f[0].Gzip == 0 || f[1].Gzip != 0 {
		t.Errorf("FuncParts(1) = %+v", f)
	}
	regions, err := m.Regions()
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string]int{}
	for _, r := range regions {
		sizes[r.Name] = len(r.Data)
	}
	if sizes["types (type descriptors, names, methods)"] != 0x100 || sizes["rodata (strings, static tables, constants)"] != 0x100 {
		t.Errorf("regions: %v", sizes)
	}
	if _, err := Parse(mod[:len(mod)-3]); err == nil {
		t.Errorf("truncated module accepted")
	}
	if _, err := Parse([]byte("\x00asm\x01\x00\x00\x00")); err == nil {
		t.Errorf("module without names accepted")
	}
}

func TestPackageOf(t *testing.T) {
	for in, want := range map[string]string{
		"runtime.mallocgc": "runtime",
		"github.com_gpumem_playground_sim_py.__Interp_.Run": "github.com_gpumem_playground_sim_py",
		"slices.Sort[go.shape.int]":                         "slices",
		"type:.eq.[2]string":                                "type:",
		"memchr":                                            "memchr",
	} {
		if got := PackageOf(in); got != want {
			t.Errorf("PackageOf(%q) = %q, want %q", in, got, want)
		}
	}
}
