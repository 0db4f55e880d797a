package main

import (
	"bytes"
	"math/rand"
	"testing"
)

// module assembles a module: a type section (so that there is something to
// copy unchanged), an optional data-count section, then the data section.
func module(dataCount bool, segs ...[]byte) []byte {
	var b bytes.Buffer
	b.WriteString("\x00asm\x01\x00\x00\x00")
	writeSection(&b, 1, []byte{1, 0x60, 0, 0}) // one type: [] -> []
	if dataCount {
		writeSection(&b, sectionDataCount, appendULEB(nil, uint64(len(segs))))
	}
	body := appendULEB(nil, uint64(len(segs)))
	for _, s := range segs {
		body = append(body, s...)
	}
	writeSection(&b, sectionData, body)
	writeSection(&b, 0, append([]byte{4}, "name"...)) // a custom section after it
	return b.Bytes()
}

// active encodes a segment the way Go's linker does.
func active(offset int64, data string) []byte {
	b := []byte{0, opI32Const}
	b = appendSLEB(b, int64(int32(uint32(offset))))
	b = append(b, opEnd)
	b = appendULEB(b, uint64(len(data)))
	return append(b, data...)
}

// image is the initial linear memory a module's data section describes.
func image(t *testing.T, mod []byte) map[int64]byte {
	t.Helper()
	secs, err := sections(mod)
	if err != nil {
		t.Fatal(err)
	}
	mem := map[int64]byte{}
	for _, s := range secs {
		if s.id != sectionData {
			continue
		}
		segs, err := parseData(s.body)
		if err != nil {
			t.Fatal(err)
		}
		for _, sg := range segs {
			for i, c := range sg.data {
				if c != 0 {
					mem[sg.offset+int64(i)] = c
				}
			}
		}
	}
	return mem
}

func dataCountOf(t *testing.T, mod []byte) (uint64, bool) {
	secs, err := sections(mod)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secs {
		if s.id == sectionDataCount {
			n, err := (&reader{b: s.body}).uleb()
			if err != nil {
				t.Fatal(err)
			}
			return n, true
		}
	}
	return 0, false
}

func TestPack(t *testing.T) {
	cases := []struct {
		name      string
		segs      [][]byte
		maxGap    int
		dataCount bool
		wantSegs  int
	}{
		{"adjacent", [][]byte{active(100, "ab"), active(102, "cd")}, 0, false, 1},
		{"gap within limit", [][]byte{active(100, "ab"), active(110, "cd"), active(200, "ef")}, 8, false, 2},
		{"gap equal to limit", [][]byte{active(100, "ab"), active(110, "cd")}, 8, false, 1},
		{"gap over limit", [][]byte{active(100, "ab"), active(111, "cd")}, 8, true, 2},
		{"all joined, data count updated", [][]byte{active(16, "x"), active(40, "y"), active(64, "z")}, 64, true, 1},
		{"high addresses", [][]byte{active(0x7fffff00, "ab"), active(0x80000000, "cd"), active(0xfffffff0, "ef")}, 256, false, 2},
		{"one segment", [][]byte{active(8, "only")}, 64, false, 1},
		{"out of address order", [][]byte{active(200, "cd"), active(300, "ef"), active(100, "ab"), active(104, "x")}, 8, true, 3},
		{"no segments", nil, 64, true, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := module(c.dataCount, c.segs...)
			out, st, err := Pack(in, c.maxGap)
			if err != nil {
				t.Fatal(err)
			}
			if st.SegmentsIn != len(c.segs) || st.SegmentsOut != c.wantSegs {
				t.Errorf("segments %d → %d, want %d → %d", st.SegmentsIn, st.SegmentsOut, len(c.segs), c.wantSegs)
			}
			if a, b := image(t, in), image(t, out); !equalImages(a, b) {
				t.Errorf("memory image changed:\n in %v\nout %v", a, b)
			}
			if n, ok := dataCountOf(t, out); ok != c.dataCount || (ok && n != uint64(c.wantSegs)) {
				t.Errorf("data count section: %d present=%v, want %d present=%v", n, ok, c.wantSegs, c.dataCount)
			}
			again, _, err := Pack(out, c.maxGap)
			if err != nil || !bytes.Equal(again, out) {
				t.Errorf("packing twice changed the module (err %v)", err)
			}
		})
	}
}

// TestPackRandom checks on random layouts that the memory image never
// changes and that no two output segments are closer than the limit.
func TestPackRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for iter := 0; iter < 300; iter++ {
		var segs [][]byte
		off := int64(rng.Intn(1000))
		for n := rng.Intn(40); n > 0; n-- {
			data := make([]byte, 1+rng.Intn(20))
			rng.Read(data)
			segs = append(segs, active(off, string(data)))
			off += int64(len(data) + rng.Intn(100))
		}
		maxGap := rng.Intn(80)
		in := module(rng.Intn(2) == 0, segs...)
		out, _, err := Pack(in, maxGap)
		if err != nil {
			t.Fatal(err)
		}
		if !equalImages(image(t, in), image(t, out)) {
			t.Fatalf("iteration %d: memory image changed", iter)
		}
		secs, _ := sections(out)
		for _, s := range secs {
			if s.id != sectionData {
				continue
			}
			got, _ := parseData(s.body)
			for i := 1; i < len(got); i++ {
				if gap := got[i].offset - got[i-1].offset - int64(len(got[i-1].data)); gap <= int64(maxGap) {
					t.Fatalf("iteration %d: segments %d and %d left %d bytes apart (limit %d)", iter, i-1, i, gap, maxGap)
				}
			}
		}
	}
}

func TestPackLeavesOtherFormsAlone(t *testing.T) {
	passive := append([]byte{1}, appendULEB(nil, 2)...)
	passive = append(passive, "ab"...)
	explicitMem := []byte{2, 0, opI32Const, 8, opEnd, 1, 'x'}
	globalOffset := []byte{0, 0x23, 0, opEnd, 1, 'x'}
	overlapping := [][]byte{active(100, "abcd"), active(102, "x")}
	for name, segs := range map[string][][]byte{
		"passive":       {active(0, "a"), passive},
		"explicit mem":  {explicitMem},
		"global offset": {globalOffset},
		"overlapping":   overlapping,
	} {
		in := module(false, segs...)
		out, _, err := Pack(in, 64)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !bytes.Equal(out, in) {
			t.Errorf("%s: module changed", name)
		}
	}
}

func TestPackRejectsBrokenModules(t *testing.T) {
	good := module(false, active(0, "ab"), active(4, "cd"))
	for name, mod := range map[string][]byte{
		"empty":      nil,
		"not wasm":   []byte("\x7fELF\x02\x01\x01\x00"),
		"truncated":  good[:len(good)-3],
		"bad length": append(append([]byte(nil), good[:8]...), sectionData, 0xff, 0xff, 0xff, 0xff, 0x0f),
		"short segment": module(false, func() []byte {
			b := active(0, "abc")
			return b[:len(b)-1]
		}()),
	} {
		if _, _, err := Pack(mod, 64); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func equalImages(a, b map[int64]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
