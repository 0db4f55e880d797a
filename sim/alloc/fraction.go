package alloc

import (
	"fmt"
	"math"
	"strconv"
)

// SetMemoryFraction is torch.cuda.set_per_process_memory_fraction (spec
// §11). 2.11: a fraction below 1 limits reserved memory to
// floor(fraction × total memory); 1.0 removes the limit. With the profile's
// LegacyFraction (pre-2.5) every call installs fraction × total, 1.0
// included. Values outside [0, 1] are rejected with Python's ValueError text.
func (a *Allocator) SetMemoryFraction(f float64) error {
	if math.IsNaN(f) || f < 0 || f > 1 {
		return fmt.Errorf("Invalid fraction value: %s. Allowed range: 0~1", pyFloat(f))
	}
	a.applyFraction(f)
	return nil
}

// applyFraction installs a validated fraction.
func (a *Allocator) applyFraction(f float64) {
	if a.prof.LegacyFraction {
		_, total := a.dev.MemGetInfo()
		a.allowed = int64(f * float64(total))
		a.fractionSet = true
		return
	}
	if f < 1 {
		a.allowed = int64(f * float64(a.prof.TotalMemory))
		a.fractionSet = true
	} else {
		a.allowed, a.fractionSet = 0, false
	}
}

// GetMemoryFraction is torch.cuda.get_per_process_memory_fraction():
// allowed / total memory, or 1.0 without a limit.
func (a *Allocator) GetMemoryFraction() float64 {
	if !a.fractionSet {
		return 1.0
	}
	total := a.prof.TotalMemory
	if a.prof.LegacyFraction {
		_, total = a.dev.MemGetInfo()
	}
	return float64(a.allowed) / float64(total)
}

// SetSettings is torch._C._accelerator_setAllocatorSettings(s): parse s on
// top of the current settings (max_split_size_mb, roundup_power2_divisions
// and garbage_collection_threshold return to their defaults unless given)
// and use the result from now on. A per_process_memory_fraction in s is
// applied. On error nothing changes.
func (a *Allocator) SetSettings(s string) error {
	c, err := applySettings(a.cfg, s)
	if err != nil {
		return err
	}
	a.cfg = c
	if c.HasMemoryFraction && hasKey(s, "per_process_memory_fraction") {
		a.applyFraction(c.MemoryFraction)
	}
	return nil
}

// hasKey reports whether settings text s mentions key.
func hasKey(s, key string) bool {
	for _, t := range tokenize(s) {
		if t == key {
			return true
		}
	}
	return false
}

// pyFloat formats f as Python's repr would for common values.
func pyFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if f == math.Trunc(f) && math.Abs(f) < 1e16 {
		s = strconv.FormatFloat(f, 'f', 1, 64)
	}
	return s
}
