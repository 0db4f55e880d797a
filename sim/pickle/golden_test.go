package pickle

//go:generate python3 testdata/gen_golden.py

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/snapshot_go_p*.pickle from the current encoder")

// readGolden reads a testdata file.
func readGolden(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("read golden: %v (regenerate with: go generate ./sim/pickle/)", err)
	}
	return b
}

// TestGoldenDecode decodes the CPython-written golden pickles (protocols 2
// to 5) and compares with CPython's canonical form of the same value.
func TestGoldenDecode(t *testing.T) {
	kitchen := strings.TrimSpace(string(readGolden(t, "kitchen.canon")))
	snapSum := strings.TrimSpace(string(readGolden(t, "snapshot.canon.sha256")))
	for _, name := range []string{"snapshot", "kitchen"} {
		for p := 2; p <= 5; p++ {
			file := fmt.Sprintf("%s_p%d.pickle", name, p)
			v, err := Unmarshal(readGolden(t, file))
			if err != nil {
				t.Errorf("%s: %v", file, err)
				continue
			}
			got := canon(v)
			if name == "snapshot" {
				sum := sha256.Sum256([]byte(got))
				if hex.EncodeToString(sum[:]) != snapSum {
					t.Errorf("%s: canon sha256 %x, want %s", file, sum, snapSum)
				}
			} else if got != kitchen {
				t.Errorf("%s:\n got %s\nwant %s", file, got, kitchen)
			}
		}
	}
}

// TestGoldenSnapshotShape spot-checks the decoded snapshot through the public
// value model, the way an importer would read it.
func TestGoldenSnapshotShape(t *testing.T) {
	v, err := Unmarshal(readGolden(t, "snapshot_p4.pickle"))
	if err != nil {
		t.Fatal(err)
	}
	root, ok := v.(*Dict)
	if !ok {
		t.Fatalf("root is %T", v)
	}
	if got := fmt.Sprint(root.Keys); got != "[segments device_traces allocator_settings external_annotations]" {
		t.Errorf("keys = %s", got)
	}
	segs, _ := root.Get("segments")
	seg := segs.([]any)[0].(*Dict)
	if a, _ := seg.Get("address"); a != int64(0x7F3A00000000) {
		t.Errorf("address = %v", a)
	}
	if id, _ := seg.Get("segment_pool_id"); fmt.Sprint(id) != "[0 0]" {
		t.Errorf("segment_pool_id = %#v", id)
	}
	traces, _ := root.Get("device_traces")
	e := traces.([]any)[0].([]any)[1].(*Dict)
	fr, _ := e.Get("frames")
	f0 := fr.([]any)[0].(*Dict)
	if _, ok := f0.Get("filename"); !ok || f0.Len() != 3 {
		t.Errorf("frame = %#v", f0)
	}
}

// TestGoldenEncode pins the encoder's protocol 2 output (the memory_viz
// export format) for the start of the golden snapshot: three segments and 25
// trace entries. Run with -update after an intended change.
func TestGoldenEncode(t *testing.T) {
	v, err := Unmarshal(readGolden(t, "snapshot_p4.pickle"))
	if err != nil {
		t.Fatal(err)
	}
	root := v.(*Dict)
	segs, _ := root.Get("segments")
	root.Set("segments", segs.([]any)[:3])
	traces, _ := root.Get("device_traces")
	root.Set("device_traces", []any{traces.([]any)[0].([]any)[:25]})
	got, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	const name = "snapshot_go_p2.pickle"
	if *update {
		if err := os.WriteFile(filepath.Join("testdata", name), got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if want := readGolden(t, name); !bytes.Equal(got, want) {
		t.Errorf("%s: encoder output changed (%d bytes, golden %d); rerun with -update if intended", name, len(got), len(want))
	}
	back, err := Unmarshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if canon(back) != canon(v) {
		t.Error("snapshot does not survive encode/decode")
	}
}
