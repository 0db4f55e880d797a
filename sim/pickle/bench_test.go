package pickle

import (
	"fmt"
	"testing"
)

// syntheticSnapshot builds a snapshot-shaped value like the simulator
// exports: segments with blocks, and one device trace whose entries share a
// pool of frame dicts.
func syntheticSnapshot(segments, traceEntries int) *Dict {
	frames := make([]any, 16)
	for i := range frames {
		f := NewDict()
		f.Set("name", fmt.Sprintf("function_%d", i))
		f.Set("filename", fmt.Sprintf("/usr/lib/python3.11/site-packages/torch/nn/modules/file_%d.py", i))
		f.Set("line", int64(100+i))
		frames[i] = f
	}
	base := int64(0x7F3A00000000)
	segs := make([]any, segments)
	for s := range segs {
		blocks := make([]any, 8)
		for b := range blocks {
			blk := NewDict()
			blk.Set("address", base+int64(s)<<22+int64(b)<<18)
			blk.Set("size", int64(1)<<18)
			blk.Set("requested_size", int64(1)<<18-int64(b))
			blk.Set("state", "active_allocated")
			blk.Set("frames", frames[b:b+4])
			blocks[b] = blk
		}
		seg := NewDict()
		seg.Set("device", int64(0))
		seg.Set("address", base+int64(s)<<22)
		seg.Set("total_size", int64(2)<<20)
		seg.Set("segment_type", "large")
		seg.Set("segment_pool_id", Tuple{int64(0), int64(0)})
		seg.Set("is_expandable", false)
		seg.Set("frames", []any{})
		seg.Set("blocks", blocks)
		segs[s] = seg
	}
	trace := make([]any, traceEntries)
	for i := range trace {
		e := NewDict()
		e.Set("action", "alloc")
		e.Set("addr", base+int64(i)*512)
		e.Set("size", int64(512))
		e.Set("stream", int64(0))
		e.Set("time_us", int64(1733000000000000)+int64(i))
		e.Set("compile_context", "N/A")
		e.Set("user_metadata", "")
		e.Set("frames", frames[i%8:i%8+6])
		trace[i] = e
	}
	root := NewDict()
	root.Set("segments", segs)
	root.Set("device_traces", []any{trace})
	root.Set("allocator_settings", NewDict())
	root.Set("external_annotations", []any{})
	return root
}

func BenchmarkMarshalSnapshot(b *testing.B) {
	v := syntheticSnapshot(200, 20000)
	out, err := Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Marshal(v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUnmarshalSnapshot(b *testing.B) {
	data, err := Marshal(syntheticSnapshot(200, 20000))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Unmarshal(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnmarshalCPython decodes the CPython-written golden snapshot,
// which shares strings and frames through the memo.
func BenchmarkUnmarshalCPython(b *testing.B) {
	data := readGolden(b, "snapshot_p4.pickle")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Unmarshal(data); err != nil {
			b.Fatal(err)
		}
	}
}
