package pickle

// Default bounds used when a Limits field is zero.
const (
	// DefaultMaxDepth is the default nesting limit. CPython itself cannot
	// pickle structures much deeper than its recursion limit (1000), and a
	// memory snapshot nests about six levels.
	DefaultMaxDepth = 1000
	// DefaultMaxBytes is the default bound on the estimated memory of a
	// decoded value. Real snapshots with long traces reach hundreds of MiB.
	DefaultMaxBytes int64 = 1 << 30
)

// Limits bounds the resources one Decode or Encode may use, so hostile or
// corrupt input fails with ErrLimit instead of exhausting memory or stack.
// Zero fields take the defaults above.
type Limits struct {
	// MaxDepth is the deepest nesting of containers (lists, tuples, dicts,
	// sets) allowed in a value; the top-level container is depth 1.
	MaxDepth int
	// MaxBytes bounds the estimated Go memory of the decoded value (strings,
	// slices, dict indexes). It is checked before allocating, so a length
	// field in the input can never force a larger allocation.
	MaxBytes int64
}

// withDefaults fills zero fields with the package defaults.
func (l Limits) withDefaults() Limits {
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	return l
}

// Approximate Go memory costs charged against Limits.MaxBytes.
const (
	costSlot      = 16  // one interface value in a slice or on the stack
	costContainer = 64  // header of a list, tuple, dict or set
	costMapEntry  = 48  // one entry of a dict or set index plus its key/value slots
	costScalar    = 16  // boxed number or small value
	costBigInt    = 48  // big.Int header
	costString    = 16  // string header
	costBytes     = 24  // slice header
	maxLineLength = 256 // longest module or name in a GLOBAL opcode
)

// budget tracks how much of Limits.MaxBytes is left.
type budget struct {
	left int64
}

// take removes n bytes from the budget and reports whether they were there.
func (b *budget) take(n int64) bool {
	if n < 0 || n > b.left {
		b.left = -1
		return false
	}
	b.left -= n
	return true
}
