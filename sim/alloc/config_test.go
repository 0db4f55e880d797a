package alloc

import (
	"errors"
	"reflect"
	"testing"
)

func TestParseConfigValid(t *testing.T) {
	div := func(vals ...int64) (d [roundupIntervals]int64) {
		copy(d[:], vals)
		return d
	}
	all := func(v int64) (d [roundupIntervals]int64) {
		for i := range d {
			d[i] = v
		}
		return d
	}
	tests := []struct {
		in    string
		check func(c Config) bool
	}{
		{"", func(c Config) bool { return reflect.DeepEqual(c, DefaultConfig()) }},
		{"max_split_size_mb:64", func(c Config) bool { return c.MaxSplitSize == 64<<20 }},
		{" max_split_size_mb : 20 ", func(c Config) bool { return c.MaxSplitSize == 20<<20 }},
		{"expandable_segments:True", func(c Config) bool { return c.ExpandableSegments }},
		{"expandable_segments:False", func(c Config) bool { return !c.ExpandableSegments }},
		{"garbage_collection_threshold:0.5", func(c Config) bool { return c.GarbageCollectionThreshold == 0.5 }},
		{"roundup_power2_divisions:4", func(c Config) bool { return c.RoundupPower2Divisions == all(4) }},
		{"roundup_power2_divisions:[64:8,256:4,>:1]", func(c Config) bool {
			// bucket 7 (128–256 MiB) is not listed: it keeps 0
			return c.RoundupPower2Divisions == div(8, 8, 8, 8, 8, 8, 8, 0, 4, 1, 1, 1, 1, 1, 1, 1)
		}},
		{"roundup_power2_divisions:[1:2,>:0]", func(c Config) bool { return c.RoundupPower2Divisions == div(2) }},
		{"roundup_power2_divisions:[65536:16]", func(c Config) bool { return c.RoundupPower2Divisions == all(16) }},
		{"large_segment_size_mb:40,max_split_size_mb:40", func(c Config) bool {
			return c.LargeSegmentSize == 40<<20 && c.MaxSplitSize == 40<<20 && c.MaxNonSplitRounding == 40<<20
		}},
		{"max_non_split_rounding_mb:30", func(c Config) bool { return c.MaxNonSplitRounding == 30<<20 }},
		{"per_process_memory_fraction:0.25", func(c Config) bool { return c.HasMemoryFraction && c.MemoryFraction == 0.25 }},
		{"backend:cudaMallocAsync", func(c Config) bool { return c.Backend == "cudaMallocAsync" }},
		{"release_lock_on_cudamalloc:True,pinned_use_cuda_host_register:True,pinned_num_register_threads:8,graph_capture_record_stream_reuse:True,pinned_use_background_threads:True,pinned_reserve_segment_size_mb:4", func(c Config) bool {
			return c.ReleaseLockOnCudaMalloc && c.PinnedUseCudaHostRegister && c.PinnedNumRegisterThreads == 8 &&
				c.GraphCaptureRecordStreamReuse && c.PinnedUseBackgroundThreads && c.PinnedReserveSegmentSizeMB == 4
		}},
		{"max_split_size_mb:99999999999999999", func(c Config) bool { return c.MaxSplitSize > 1<<62 }},
	}
	for _, tc := range tests {
		c, err := ParseConfig(tc.in)
		if err != nil {
			t.Errorf("ParseConfig(%q): %v", tc.in, err)
			continue
		}
		if c.Settings != tc.in {
			t.Errorf("ParseConfig(%q).Settings = %q", tc.in, c.Settings)
		}
		if !tc.check(c) {
			t.Errorf("ParseConfig(%q) = %+v", tc.in, c)
		}
		roundTrip(t, c)
	}
}

// roundTrip checks that c.String() parses back to c.
func roundTrip(t testing.TB, c Config) {
	t.Helper()
	c2, err := ParseConfig(c.String())
	if err != nil {
		t.Fatalf("ParseConfig(String() = %q): %v", c.String(), err)
	}
	c.Settings, c2.Settings = "", ""
	if !reflect.DeepEqual(c, c2) {
		t.Fatalf("round trip of %q:\n%+v\n%+v", c.String(), c, c2)
	}
}

func TestParseConfigInvalid(t *testing.T) {
	tests := []struct{ in, key, msg string }{
		{"max_split_size_mb:10", "max_split_size_mb", "CachingAllocator option max_split_size_mb too small, must be >= 20"},
		{"large_segment_size_mb:40,max_split_size_mb:30", "max_split_size_mb", "CachingAllocator option max_split_size_mb too small, must be >= 40"},
		{"max_non_split_rounding_mb:19", "max_non_split_rounding_mb", "CachingAllocator option max_non_split_rounding_mb too small, must be >= 20"},
		{"large_segment_size_mb:10", "large_segment_size_mb", "CachingAllocator option large_segment_size_mb must be > 10 MB"},
		{"garbage_collection_threshold:1.0", "garbage_collection_threshold", "garbage_collect_threshold is invalid, set it in (0.0, 1.0)"},
		{"garbage_collection_threshold:0", "garbage_collection_threshold", "garbage_collect_threshold is invalid, set it in (0.0, 1.0)"},
		{"garbage_collection_threshold:abc", "garbage_collection_threshold", "invalid value 'abc' for garbage_collection_threshold: expected a number (stod)"},
		{"expandable_segments:true", "expandable_segments", "Expected 'True' or 'False' at index 2 in ConfigTokenizer but got 'true'"},
		{"foo:1", "foo", "Unrecognized key 'foo' in CUDA allocator config."},
		{"roundup_power2_divisions:3", "roundup_power2_divisions", "For roundups, the divisions has to be power of 2 "},
		{"roundup_power2_divisions:0", "roundup_power2_divisions", "For roundups, the divisions has to be power of 2 "},
		{"roundup_power2_divisions:[64:3]", "roundup_power2_divisions", "For roundups, the divisions has to be power of 2 or 0 to disable roundup "},
		{"roundup_power2_divisions:[100:4]", "roundup_power2_divisions", "For roundups, the intervals have to be power of 2 "},
		{"roundup_power2_divisions:[64:4", "roundup_power2_divisions", "Expected closing bracket ']' in ConfigTokenizer but reached end of config"},
		{"backend:foo", "backend", "Unknown allocator backend, options are native and cudaMallocAsync"},
		{"per_process_memory_fraction:1.5", "per_process_memory_fraction", "per_process_memory_fraction is invalid, set it in [0.0, 1.0]"},
		{"pinned_num_register_threads:3", "pinned_num_register_threads", "Number of register threads has to be power of 2, got 3"},
		{"pinned_num_register_threads:256", "pinned_num_register_threads", "Number of register threads should be less than or equal to 128, got 256"},
		{"pinned_reserve_segment_size_mb:0", "pinned_reserve_segment_size_mb", "Pinned reserve segment size has to be greater than 0"},
		{"max_split_size_mb", "max_split_size_mb", "Index out of bounds in ConfigTokenizer"},
		{"max_split_size_mb:", "max_split_size_mb", "Index out of bounds in ConfigTokenizer"},
		{"max_split_size_mb:-1", "max_split_size_mb", "invalid value '-1' for max_split_size_mb: expected a non-negative integer (stoull)"},
		{"max_split_size_mb:64;expandable_segments:True", "max_split_size_mb", "Error parsing CachingAllocator::AllocatorConfig settings, expected ,"},
		{"max_split_size_mb:6x4", "max_split_size_mb", "invalid value '6x4' for max_split_size_mb: expected a non-negative integer (stoull)"},
		{"max_split_size_mb=64", "max_split_size_mb=64", "Index out of bounds in ConfigTokenizer"},
		{"max_split_size_mb:64 expandable_segments:True", "max_split_size_mb", "Error parsing CachingAllocator::AllocatorConfig settings, expected ,"},
		{"expandable_segments:True:False", "expandable_segments", "Error parsing CachingAllocator::AllocatorConfig settings, expected ,"},
		{",", "", "Unrecognized key ',' in CUDA allocator config."},
	}
	for _, tc := range tests {
		_, err := ParseConfig(tc.in)
		var ce *ConfigError
		if !errors.As(err, &ce) {
			t.Errorf("ParseConfig(%q) error = %v, want *ConfigError", tc.in, err)
			continue
		}
		if ce.Key != tc.key || ce.Msg != tc.msg {
			t.Errorf("ParseConfig(%q) = {%q, %q}, want {%q, %q}", tc.in, ce.Key, ce.Msg, tc.key, tc.msg)
		}
	}
}

func TestConfigFromEnv(t *testing.T) {
	env := map[string]string{"PYTORCH_ALLOC_CONF": "max_split_size_mb:100", "PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"}
	c, err := ConfigFromEnv(func(k string) string { return env[k] })
	if err != nil || !c.ExpandableSegments || c.MaxSplitSize != unlimited {
		t.Errorf("both set: %+v, %v (PYTORCH_CUDA_ALLOC_CONF wins)", c, err)
	}
	delete(env, "PYTORCH_CUDA_ALLOC_CONF")
	if c, err = ConfigFromEnv(func(k string) string { return env[k] }); err != nil || c.MaxSplitSize != 100<<20 {
		t.Errorf("PYTORCH_ALLOC_CONF only: %+v, %v", c, err)
	}
	env["PYTORCH_CUDA_ALLOC_CONF"] = "bad:1"
	if _, err = ConfigFromEnv(func(k string) string { return env[k] }); err == nil || err.Error() != "PYTORCH_CUDA_ALLOC_CONF: Unrecognized key 'bad' in CUDA allocator config." {
		t.Errorf("bad value: %v", err)
	}
	if c, err = ConfigFromEnv(func(string) string { return "" }); err != nil || !reflect.DeepEqual(c, DefaultConfig()) {
		t.Errorf("unset: %+v, %v", c, err)
	}
}

// TestSetSettings checks the re-parse semantics of
// _accelerator_setAllocatorSettings (spec §12.1).
func TestSetSettings(t *testing.T) {
	a := newTest(t, "expandable_segments:True,max_split_size_mb:100,garbage_collection_threshold:0.6")
	if err := a.SetSettings("roundup_power2_divisions:2"); err != nil {
		t.Fatal(err)
	}
	c := a.Config()
	if !c.ExpandableSegments || c.MaxSplitSize != unlimited || c.GarbageCollectionThreshold != 0 || c.RoundupPower2Divisions[3] != 2 {
		t.Errorf("after SetSettings: %+v", c)
	}
	if err := a.SetSettings("max_split_size_mb:1"); err == nil {
		t.Error("invalid settings accepted")
	}
	if a.Config().RoundupPower2Divisions[3] != 2 {
		t.Error("a rejected SetSettings changed the config")
	}
	if err := a.SetSettings("per_process_memory_fraction:0.5"); err != nil || a.GetMemoryFraction() != float64(a.allowed)/85017493504 || !a.fractionSet {
		t.Errorf("fraction via settings: %v, %v", err, a.GetMemoryFraction())
	}
	if snap := a.Snapshot(); snap.Settings.Settings != "per_process_memory_fraction:0.5" {
		t.Errorf("settings string = %q", snap.Settings.Settings)
	}
	b := newTest(t, "per_process_memory_fraction:0.25")
	if b.allowed != int64(0.25*85017493504) || !b.fractionSet {
		t.Errorf("fraction from config at start: %d", b.allowed)
	}
}

// FuzzParseConfig: the parser never panics and accepted text round-trips.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{"", "max_split_size_mb:64", "roundup_power2_divisions:[64:8,256:4,>:1]",
		"expandable_segments:True,garbage_collection_threshold:0.5", "large_segment_size_mb:40", "per_process_memory_fraction:0.1",
		"backend:native,release_lock_on_cudamalloc:False", "[:,]", "roundup_power2_divisions:[>:2]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseConfig(s)
		if err != nil {
			if _, ok := err.(*ConfigError); !ok {
				t.Fatalf("ParseConfig(%q) returned %T", s, err)
			}
			return
		}
		roundTrip(t, c)
	})
}
