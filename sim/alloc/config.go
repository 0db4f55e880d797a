package alloc

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// Config holds the caching allocator settings of PYTORCH_ALLOC_CONF /
// PYTORCH_CUDA_ALLOC_CONF (allocator spec §12). The zero value is not
// meaningful; start from DefaultConfig or ParseConfig.
type Config struct {
	// MaxSplitSize is max_split_size_mb in bytes; blocks at least this big are
	// never split. Unlimited (the default) is math.MaxInt64, reported as −1.
	MaxSplitSize int64
	// MaxNonSplitRounding is max_non_split_rounding_mb in bytes (default
	// LargeSegmentSize): how much bigger than an oversize request a reused
	// cached block may be.
	MaxNonSplitRounding int64
	// RoundupPower2Divisions is roundup_power2_divisions per size bucket
	// (bucket k = [2^(20+k), 2^(21+k)), bucket 0 also everything smaller).
	RoundupPower2Divisions [roundupIntervals]int64
	// GarbageCollectionThreshold is garbage_collection_threshold (0 = off).
	GarbageCollectionThreshold float64
	// ExpandableSegments is expandable_segments.
	ExpandableSegments bool
	// LargeSegmentSize is large_segment_size_mb in bytes (default 20 MiB): the
	// segment size of 1–10 MiB requests and the expandable large page.
	LargeSegmentSize int64
	// MemoryFraction is per_process_memory_fraction, applied when the
	// allocator starts (HasMemoryFraction says whether it was given).
	MemoryFraction    float64
	HasMemoryFraction bool
	// Backend is "native" or "cudaMallocAsync". Only the native allocator is
	// simulated; the value is kept for display.
	Backend string

	// Settings that do not change the simulation but appear in
	// snapshot()["allocator_settings"].
	ReleaseLockOnCudaMalloc       bool
	GraphCaptureRecordStreamReuse bool
	PinnedUseCudaHostRegister     bool
	PinnedUseBackgroundThreads    bool
	PinnedNumRegisterThreads      int64
	PinnedReserveSegmentSizeMB    int64

	// Settings is the text last parsed (PyTorch's last_allocator_settings).
	Settings string
}

// DefaultConfig returns PyTorch 2.11's defaults (no environment variable set).
func DefaultConfig() Config {
	return Config{
		MaxSplitSize:             unlimited,
		MaxNonSplitRounding:      kLargeBuffer,
		LargeSegmentSize:         kLargeBuffer,
		Backend:                  "native",
		PinnedNumRegisterThreads: 1,
	}
}

// ConfigError is a rejected allocator setting. Error returns PyTorch's own
// message where it is known.
type ConfigError struct {
	Key string // the key being parsed ("" when the text could not be split into keys)
	Msg string
}

// Error returns the message.
func (e *ConfigError) Error() string { return e.Msg }

// maxPinnedRegisterThreads is PyTorch's pinned_max_register_threads().
const maxPinnedRegisterThreads = 128

// ParseConfig parses a PYTORCH_CUDA_ALLOC_CONF value with PyTorch 2.11's
// rules: `key:value[,key:value…]`, list values in brackets, whitespace
// ignored, booleans exactly True/False. Keys that only matter to features the
// simulator does not model (pinned memory, threading, CUDA graphs) are
// validated and kept.
func ParseConfig(s string) (Config, error) {
	return applySettings(DefaultConfig(), s)
}

// ConfigFromEnv reads the allocator settings from the environment. Like the
// PyTorch 2.9+ source (AcceleratorAllocatorConfig::instance), the first of
// PYTORCH_CUDA_ALLOC_CONF, PYTORCH_HIP_ALLOC_CONF and PYTORCH_ALLOC_CONF that
// is set (non-empty here) is parsed and the others are ignored; this
// precedence was read from source, not measured on 2.11.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	for _, name := range []string{"PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_HIP_ALLOC_CONF", "PYTORCH_ALLOC_CONF"} {
		if v := getenv(name); v != "" {
			c, err := ParseConfig(v)
			if err != nil {
				return c, fmt.Errorf("%s: %w", name, err)
			}
			return c, nil
		}
	}
	return DefaultConfig(), nil
}

// applySettings parses s on top of base like setAllocatorSettings: the
// settings max_split_size_mb, roundup_power2_divisions and
// garbage_collection_threshold return to their defaults unless given again,
// max_non_split_rounding_mb returns to large_segment_size, and every other
// setting keeps its previous value unless given.
func applySettings(base Config, s string) (Config, error) {
	c := base
	c.MaxSplitSize = unlimited
	c.RoundupPower2Divisions = [roundupIntervals]int64{}
	c.GarbageCollectionThreshold = 0
	c.Settings = s

	items, err := splitItems(tokenize(s))
	if err != nil {
		return base, err
	}
	// large_segment_size_mb first: the other limits are checked against it.
	for _, it := range items {
		if it.key == "large_segment_size_mb" {
			v, err := it.sizeT()
			if err != nil {
				return base, err
			}
			if v <= uint64(kMinLargeAlloc/mib) {
				return base, &ConfigError{it.key, fmt.Sprintf("CachingAllocator option large_segment_size_mb must be > %d MB", kMinLargeAlloc/mib)}
			}
			c.LargeSegmentSize = clampMB(v)
		}
	}
	c.MaxNonSplitRounding = c.LargeSegmentSize
	// Generic (AcceleratorAllocatorConfig) keys, then the CUDA-specific ones,
	// as PyTorch runs its two parsers one after the other.
	for _, it := range items {
		if err := c.applyGeneric(it); err != nil {
			return base, err
		}
	}
	for _, it := range items {
		if err := c.applyCUDA(it); err != nil {
			return base, err
		}
	}
	return c, nil
}

// applyGeneric handles the keys of c10/core/AllocatorConfig.cpp.
func (c *Config) applyGeneric(it item) error {
	switch it.key {
	case "large_segment_size_mb":
		return nil // handled first
	case "max_split_size_mb", "max_non_split_rounding_mb":
		v, err := it.sizeT()
		if err != nil {
			return err
		}
		min := c.LargeSegmentSize / mib
		if v < uint64(min) {
			return &ConfigError{it.key, fmt.Sprintf("CachingAllocator option %s too small, must be >= %d", it.key, min)}
		}
		if it.key == "max_split_size_mb" {
			c.MaxSplitSize = clampMB(v)
		} else {
			c.MaxNonSplitRounding = clampMB(v)
		}
	case "garbage_collection_threshold":
		v, err := it.double()
		if err != nil {
			return err
		}
		if !(v > 0 && v < 1.0) {
			return &ConfigError{it.key, "garbage_collect_threshold is invalid, set it in (0.0, 1.0)"}
		}
		c.GarbageCollectionThreshold = v
	case "roundup_power2_divisions":
		return c.parseRoundup(it)
	case "expandable_segments":
		v, err := it.boolean()
		if err != nil {
			return err
		}
		c.ExpandableSegments = v
	case "pinned_use_background_threads":
		v, err := it.boolean()
		if err != nil {
			return err
		}
		c.PinnedUseBackgroundThreads = v
	default:
		if !cudaKeys[it.key] {
			return &ConfigError{it.key, fmt.Sprintf("Unrecognized key '%s' in CUDA allocator config.", it.key)}
		}
	}
	return nil
}

// cudaKeys are the keys of c10/cuda/CUDAAllocatorConfig (2.11).
var cudaKeys = map[string]bool{
	"backend": true, "release_lock_on_cudamalloc": true, "release_lock_on_hipmalloc": true,
	"pinned_use_cuda_host_register": true, "pinned_use_hip_host_register": true,
	"pinned_num_register_threads": true, "pinned_reserve_segment_size_mb": true,
	"graph_capture_record_stream_reuse": true, "per_process_memory_fraction": true,
}

// applyCUDA handles the keys of c10/cuda/CUDAAllocatorConfig.cpp.
func (c *Config) applyCUDA(it item) error {
	var err error
	switch it.key {
	case "backend":
		v, e := it.scalar()
		if e != nil {
			return e
		}
		if v != "native" && v != "cudaMallocAsync" {
			return &ConfigError{it.key, "Unknown allocator backend, options are native and cudaMallocAsync"}
		}
		c.Backend = v
	case "release_lock_on_cudamalloc", "release_lock_on_hipmalloc":
		c.ReleaseLockOnCudaMalloc, err = it.boolean()
	case "pinned_use_cuda_host_register", "pinned_use_hip_host_register":
		c.PinnedUseCudaHostRegister, err = it.boolean()
	case "graph_capture_record_stream_reuse":
		c.GraphCaptureRecordStreamReuse, err = it.boolean()
	case "pinned_num_register_threads":
		v, e := it.sizeT()
		if e != nil {
			return e
		}
		if v == 0 || v&(v-1) != 0 {
			return &ConfigError{it.key, fmt.Sprintf("Number of register threads has to be power of 2, got %d", v)}
		}
		if v > maxPinnedRegisterThreads {
			return &ConfigError{it.key, fmt.Sprintf("Number of register threads should be less than or equal to %d, got %d", maxPinnedRegisterThreads, v)}
		}
		c.PinnedNumRegisterThreads = int64(v)
	case "pinned_reserve_segment_size_mb":
		v, e := it.sizeT()
		if e != nil {
			return e
		}
		if v == 0 {
			return &ConfigError{it.key, "Pinned reserve segment size has to be greater than 0"}
		}
		c.PinnedReserveSegmentSizeMB = int64(min(v, uint64(math.MaxInt64)))
	case "per_process_memory_fraction":
		v, e := it.double()
		if e != nil {
			return e
		}
		if !(v >= 0 && v <= 1) {
			return &ConfigError{it.key, "per_process_memory_fraction is invalid, set it in [0.0, 1.0]"}
		}
		c.MemoryFraction, c.HasMemoryFraction = v, true
	}
	return err
}

// parseRoundup parses roundup_power2_divisions: a scalar power of two for
// every bucket, or a list `[K:V,…,>:V]` of MiB boundaries (spec §12.4, 2.9+
// semantics for `>`).
func (c *Config) parseRoundup(it item) error {
	if !it.list {
		v, err := it.sizeT()
		if err != nil {
			return err
		}
		if v == 0 || v&(v-1) != 0 {
			return &ConfigError{it.key, "For roundups, the divisions has to be power of 2 "}
		}
		for i := range c.RoundupPower2Divisions {
			c.RoundupPower2Divisions[i] = clampInt(v)
		}
		return nil
	}
	first, last := true, 0
	for _, p := range it.pairs {
		v, err := stoull(it.key, p[1])
		if err != nil {
			return err
		}
		if v != 0 && v&(v-1) != 0 {
			return &ConfigError{it.key, "For roundups, the divisions has to be power of 2 or 0 to disable roundup "}
		}
		if p[0] == ">" {
			for i := last + 1; i < roundupIntervals; i++ {
				c.RoundupPower2Divisions[i] = clampInt(v)
			}
			continue
		}
		k, err := stoull(it.key, p[0])
		if err != nil {
			return err
		}
		if k == 0 || k&(k-1) != 0 {
			return &ConfigError{it.key, "For roundups, the intervals have to be power of 2 "}
		}
		idx := min(63-bits.LeadingZeros64(k), roundupIntervals-1)
		if first {
			for i := 0; i < idx; i++ {
				c.RoundupPower2Divisions[i] = clampInt(v)
			}
			first = false
		}
		c.RoundupPower2Divisions[idx] = clampInt(v)
		last = idx
	}
	return nil
}

// clampMB converts a MiB count to bytes, saturating like PyTorch's
// min(val, SIZE_MAX / 1 MiB) (here at the int64 limit).
func clampMB(v uint64) int64 {
	if v >= uint64(math.MaxInt64/mib) {
		return math.MaxInt64 / mib * mib
	}
	return int64(v) * mib
}

// clampInt converts to int64, saturating.
func clampInt(v uint64) int64 {
	if v > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(v)
}

// String returns the settings in canonical form: every non-default setting,
// in a fixed order. ParseConfig(c.String()) gives c back (apart from Settings).
func (c Config) String() string {
	var parts []string
	add := func(k, v string) { parts = append(parts, k+":"+v) }
	if c.LargeSegmentSize != kLargeBuffer {
		add("large_segment_size_mb", strconv.FormatInt(c.LargeSegmentSize/mib, 10))
	}
	if c.MaxSplitSize != unlimited {
		add("max_split_size_mb", strconv.FormatInt(c.MaxSplitSize/mib, 10))
	}
	if c.MaxNonSplitRounding != c.LargeSegmentSize {
		add("max_non_split_rounding_mb", strconv.FormatInt(c.MaxNonSplitRounding/mib, 10))
	}
	if c.GarbageCollectionThreshold != 0 {
		add("garbage_collection_threshold", strconv.FormatFloat(c.GarbageCollectionThreshold, 'g', -1, 64))
	}
	if c.RoundupPower2Divisions != ([roundupIntervals]int64{}) {
		var l []string
		for i, v := range c.RoundupPower2Divisions {
			l = append(l, fmt.Sprintf("%d:%d", int64(1)<<i, v))
		}
		add("roundup_power2_divisions", "["+strings.Join(l, ",")+"]")
	}
	if c.ExpandableSegments {
		add("expandable_segments", "True")
	}
	if c.HasMemoryFraction {
		add("per_process_memory_fraction", strconv.FormatFloat(c.MemoryFraction, 'g', -1, 64))
	}
	if c.Backend != "native" && c.Backend != "" {
		add("backend", c.Backend)
	}
	for _, b := range []struct {
		k string
		v bool
	}{
		{"release_lock_on_cudamalloc", c.ReleaseLockOnCudaMalloc},
		{"graph_capture_record_stream_reuse", c.GraphCaptureRecordStreamReuse},
		{"pinned_use_cuda_host_register", c.PinnedUseCudaHostRegister},
		{"pinned_use_background_threads", c.PinnedUseBackgroundThreads},
	} {
		if b.v {
			add(b.k, "True")
		}
	}
	if c.PinnedNumRegisterThreads != 1 {
		add("pinned_num_register_threads", strconv.FormatInt(c.PinnedNumRegisterThreads, 10))
	}
	if c.PinnedReserveSegmentSizeMB != 0 {
		add("pinned_reserve_segment_size_mb", strconv.FormatInt(c.PinnedReserveSegmentSizeMB, 10))
	}
	return strings.Join(parts, ",")
}
