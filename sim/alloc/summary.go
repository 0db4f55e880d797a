package alloc

import (
	"fmt"
	"strings"
)

// Summary is torch.cuda.memory_summary(device, abbreviated) byte for byte
// (spec §9); abbreviated drops the per-pool rows.
func (a *Allocator) Summary(device int, abbreviated bool) string {
	s := a.DeviceStats()
	sep := func(c string) string { return strings.Repeat(c, 75) }
	lines := []string{
		sep("="),
		fmt.Sprintf(" %16s PyTorch CUDA memory summary, device ID %-17d ", "", device),
		sep("-"),
		fmt.Sprintf("  %9s CUDA OOMs: %-12d | %6s cudaMalloc retries: %-8d  ", "", s.NumOOMs, "", s.NumAllocRetries),
		sep("="),
		"        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  ",
	}
	type metric struct {
		a      *StatArray
		name   string
		format func(v int64, pref float64) string
	}
	metrics := []metric{
		{&s.AllocatedBytes, "Allocated memory", formatSizeCell},
		{&s.ActiveBytes, "Active memory", formatSizeCell},
		{&s.RequestedBytes, "Requested memory", formatSizeCell},
		{&s.ReservedBytes, "GPU reserved memory", formatSizeCell},
		{&s.InactiveSplitBytes, "Non-releasable memory", formatSizeCell},
		{&s.Allocation, "Allocations", formatCountCell},
		{&s.Active, "Active allocs", formatCountCell},
		{&s.Segment, "GPU reserved segments", formatCountCell},
		{&s.InactiveSplit, "Non-releasable allocs", formatCountCell},
	}
	row := func(name string, st Stat, pref Stat, f func(int64, float64) string) string {
		return fmt.Sprintf(" %-21s | %s | %s | %s | %s ", name,
			f(st.Current, float64(pref.Current)), f(st.Peak, float64(pref.Peak)),
			f(st.Allocated, float64(pref.Allocated)), f(st.Freed, float64(pref.Freed)))
	}
	for _, m := range metrics {
		lines = append(lines, sep("-"), row(m.name, m.a[statAll], m.a[statAll], m.format))
		if !abbreviated {
			lines = append(lines,
				row("      from large pool", m.a[statLarge], m.a[statAll], m.format),
				row("      from small pool", m.a[statSmall], m.a[statAll], m.format))
		}
	}
	for _, m := range []struct {
		s    Stat
		name string
	}{{s.OversizeAllocations, "Oversize allocations"}, {s.OversizeSegments, "Oversize GPU segments"}} {
		lines = append(lines, sep("-"), row(m.name, m.s, m.s, formatCountCell))
	}
	lines = append(lines, sep("="))
	return "|" + strings.Join(lines, "|\n|") + "|\n"
}

// formatSizeCell is memory_summary's _format_size: units chosen from the
// preferred value, the value floored.
func formatSizeCell(sz int64, pref float64) string {
	units := []string{"B  ", "KiB", "MiB", "GiB", "TiB", "PiB"}
	unit := units[0]
	for _, u := range units[1:] {
		if pref < 768*1024 {
			break
		}
		unit = u
		sz = floorDiv(sz, 1024)
		pref /= 1024
	}
	return fmt.Sprintf("%6d %s", sz, unit)
}

// formatCountCell is memory_summary's _format_count.
func formatCountCell(cnt int64, pref float64) string {
	units := []string{" ", "K", "M"}
	unit := units[0]
	for _, u := range units[1:] {
		if pref < 750*1000 {
			break
		}
		unit = u
		cnt = floorDiv(cnt, 1000)
		pref /= 1000
	}
	return fmt.Sprintf("%7d %s ", cnt, unit)
}

// floorDiv is Python's // for a positive divisor.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
