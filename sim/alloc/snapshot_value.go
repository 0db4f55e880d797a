package alloc

import (
	"bytes"
	"fmt"
	"math"
	"strconv"

	"github.com/gpumem/playground/sim/pickle"
	"github.com/gpumem/playground/sim/trace"
)

// PickleValue returns the snapshot as the dict torch.cuda.memory._snapshot()
// returns in 2.11 (keys segments, device_traces, allocator_settings,
// external_annotations), in sim/pickle's value model, ready to be written as
// the pickle that pytorch.org/memory_viz opens. Frames are empty lists;
// time_us is the logical clock of TraceEntry.
func (s Snapshot) PickleValue() any {
	segs := make([]any, 0, len(s.Segments))
	for _, sg := range s.Segments {
		blocks := make([]any, 0, len(sg.Blocks))
		for _, b := range sg.Blocks {
			d := pickle.NewDict()
			d.Set("address", int64(b.Address))
			d.Set("size", b.Size)
			d.Set("requested_size", b.RequestedSize)
			d.Set("state", b.State)
			d.Set("frames", []any{})
			blocks = append(blocks, d)
		}
		d := pickle.NewDict()
		d.Set("device", int64(0))
		d.Set("address", int64(sg.Address))
		d.Set("total_size", sg.TotalSize)
		d.Set("allocated_size", sg.AllocatedSize)
		d.Set("active_size", sg.ActiveSize)
		d.Set("requested_size", sg.RequestedSize)
		d.Set("stream", int64(0))
		d.Set("segment_type", string(sg.Pool))
		d.Set("segment_pool_id", pickle.Tuple{int64(0), int64(0)})
		d.Set("is_expandable", sg.IsExpandable)
		d.Set("frames", []any{})
		d.Set("blocks", blocks)
		segs = append(segs, d)
	}
	traces := make([]any, 0, len(s.Traces))
	for _, t := range s.Traces {
		d := pickle.NewDict()
		d.Set("action", t.Action)
		if t.Action == "oom" {
			d.Set("device_free", int64(t.Addr))
		} else {
			d.Set("addr", int64(t.Addr))
		}
		d.Set("size", t.Size)
		d.Set("stream", int64(0))
		d.Set("time_us", t.TimeUS)
		if t.Action != "snapshot" {
			d.Set("frames", []any{})
		}
		d.Set("compile_context", "N/A")
		d.Set("user_metadata", "")
		traces = append(traces, d)
	}
	top := pickle.NewDict()
	top.Set("segments", segs)
	top.Set("device_traces", []any{traces})
	top.Set("allocator_settings", settingsValue(s.Settings))
	top.Set("external_annotations", []any{})
	return top
}

// settingsValue is snapshot()["allocator_settings"] (spec §12.3).
func settingsValue(c Config) *pickle.Dict {
	d := pickle.NewDict()
	d.Set("PYTORCH_CUDA_ALLOC_CONF", c.Settings)
	ms := c.MaxSplitSize
	if ms == unlimited {
		ms = -1
	}
	d.Set("max_split_size", ms)
	d.Set("garbage_collection_threshold", c.GarbageCollectionThreshold)
	d.Set("expandable_segments", c.ExpandableSegments)
	d.Set("pinned_num_register_threads", c.PinnedNumRegisterThreads)
	d.Set("release_lock_on_cudamalloc", c.ReleaseLockOnCudaMalloc)
	d.Set("pinned_use_cuda_host_register", c.PinnedUseCudaHostRegister)
	d.Set("graph_capture_record_stream_reuse", c.GraphCaptureRecordStreamReuse)
	r := pickle.NewDict()
	for i, v := range c.RoundupPower2Divisions {
		r.Set(strconv.FormatInt(int64(1)<<i, 10), v)
	}
	d.Set("roundup_power2_divisions", r)
	return d
}

// MarshalJSON writes the same dict as PickleValue as JSON, keys in order
// (tuples become arrays).
func (s Snapshot) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	if err := writeJSON(&buf, s.PickleValue()); err != nil {
		return nil, fmt.Errorf("alloc: snapshot to JSON: %w", err)
	}
	return buf.Bytes(), nil
}

// writeJSON writes a value of the pickle value model as JSON.
func writeJSON(buf *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		buf.WriteString(strconv.FormatBool(v))
	case int64:
		buf.WriteString(strconv.FormatInt(v, 10))
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("float %v has no JSON form", v)
		}
		buf.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	case string:
		// encoding/json's quoting, without linking encoding/json into
		// the wasm module (its init and tables).
		buf.Write(trace.AppendJSONString(buf.AvailableBuffer(), v))
	case []any:
		return writeJSONList(buf, v)
	case pickle.Tuple:
		return writeJSONList(buf, v)
	case *pickle.Dict:
		buf.WriteByte('{')
		for i, k := range v.Keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			ks, ok := k.(string)
			if !ok {
				return fmt.Errorf("dict key %v is not a string", k)
			}
			if err := writeJSON(buf, ks); err != nil {
				return err
			}
			buf.WriteByte(':')
			if err := writeJSON(buf, v.Values[i]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	default:
		return fmt.Errorf("unsupported value %T", v)
	}
	return nil
}

func writeJSONList(buf *bytes.Buffer, l []any) error {
	buf.WriteByte('[')
	for i, e := range l {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := writeJSON(buf, e); err != nil {
			return err
		}
	}
	buf.WriteByte(']')
	return nil
}
