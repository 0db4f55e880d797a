package trace

// Row is one line of a harness trace: the state taken before source line Line
// runs (Line −1: after the script ended and its globals were released). The
// field order is that of the harness's trace_columns.
type Row struct {
	Line          int
	Allocated     int64
	Reserved      int64
	PeakAllocated int64
	PeakReserved  int64
	Segments      int64
	AllocRetries  int64
	OOMs          int64
}

// RowColumns are the names of a Row's fields, as the harness writes them.
var RowColumns = []string{"line", "allocated", "reserved", "peak_allocated", "peak_reserved", "segments", "alloc_retries", "ooms"}

// RowOf builds the row for a line from the stats in force before it runs.
func RowOf(line int, s Stats) Row {
	return Row{line, s.Allocated, s.Reserved, s.PeakAllocated, s.PeakReserved, s.Segments, s.AllocRetries, s.OOMs}
}

// Ints returns the row as the harness's JSON array.
func (r Row) Ints() []int64 {
	return []int64{int64(r.Line), r.Allocated, r.Reserved, r.PeakAllocated, r.PeakReserved, r.Segments, r.AllocRetries, r.OOMs}
}

// SnapshotSegment is a segment as the harness records it from memory_snapshot().
type SnapshotSegment struct {
	TotalSize     int64   `json:"total_size"`
	SegmentType   string  `json:"segment_type"`
	AllocatedSize int64   `json:"allocated_size"`
	Blocks        [][]any `json:"blocks"` // [size, state] pairs
}

// Golden is the JSON file written by shared/oracle/harness.py for one script
// (and by `playground run --trace`), so that the two can be compared directly.
type Golden struct {
	Stdout       string            `json:"stdout"`
	Error        *string           `json:"error"` // "Type: message" of an escaped exception
	Trace        [][]int64         `json:"trace"`
	TraceColumns []string          `json:"trace_columns"`
	FinalStats   map[string]int64  `json:"final_stats"`
	Snapshot     []SnapshotSegment `json:"snapshot"`
	Torch        string            `json:"torch"`
	Device       string            `json:"device"`
	TotalMemory  int64             `json:"total_memory"`
}

// MaxRows is the harness's limit on trace rows per script.
const MaxRows = 20000
