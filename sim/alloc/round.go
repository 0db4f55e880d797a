package alloc

import "math/bits"

// Allocator constants (allocator spec §1).
const (
	kMinBlockSize  = 512      // every request is rounded up to a multiple of this
	kSmallSize     = 1 << 20  // rounded sizes up to this go to the small pool
	kSmallBuffer   = 2 << 20  // small-pool segment size and expandable small page
	kMinLargeAlloc = 10 << 20 // sizes from here on get an exact (2 MiB-rounded) segment
	kRoundLarge    = 2 << 20  // rounding of large segments
	kLargeBuffer   = 20 << 20 // default large_segment_size
	oneExaBytes    = int64(1) << 60
	mib            = int64(1) << 20
	// unlimited is the max_split_size meaning "no limit" (SIZE_MAX in PyTorch, reported as −1).
	unlimited = int64(1<<63 - 1)
)

// roundupIntervals is the number of roundup_power2_divisions buckets.
const roundupIntervals = 16

// bucket returns the roundup_power2_divisions bucket of size (spec §12.4):
// floor(log2(size)) − 20 clamped to [0, 15].
func bucket(size int64) int {
	if size <= 0 {
		return 0
	}
	idx := 63 - bits.LeadingZeros64(uint64(size)) - 20
	if idx < 0 {
		return 0
	}
	if idx > roundupIntervals-1 {
		return roundupIntervals - 1
	}
	return idx
}

// roundSize is round_size (spec §3.1): the block size a request of n bytes
// (n > 0) needs.
func roundSize(n int64, divisions *[roundupIntervals]int64) int64 {
	if n < kMinBlockSize {
		return kMinBlockSize
	}
	d := divisions[bucket(n)]
	if d > 1 && n > kMinBlockSize*d {
		return roundupPower2NextDivision(n, d)
	}
	return (n + kMinBlockSize - 1) / kMinBlockSize * kMinBlockSize
}

// roundupPower2NextDivision rounds n up to the next of d equal divisions
// between the powers of two around it.
func roundupPower2NextDivision(n, d int64) int64 {
	if n&(n-1) == 0 {
		return n
	}
	floor := int64(1) << (63 - bits.LeadingZeros64(uint64(n)))
	step := floor >> (63 - bits.LeadingZeros64(uint64(d)))
	if step == 0 {
		return floor << 1
	}
	if n&(step-1) == 0 {
		return n
	}
	return n&^(step-1) + step
}

// allocationSize is get_allocation_size (spec §3.3): the size of a new
// segment for a rounded request.
func allocationSize(size, largeSegment int64) int64 {
	switch {
	case size <= kSmallSize:
		return kSmallBuffer
	case size < kMinLargeAlloc:
		return largeSegment
	default:
		return (size + kRoundLarge - 1) / kRoundLarge * kRoundLarge
	}
}
