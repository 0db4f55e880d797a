package compare

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// WriteText prints the table for a terminal: one row per executed line
// with the code, both sides' allocated/reserved/driver used, the GPU's time
// and device calls, the differences and their reasons, then a summary.
// src is the script (for the code column); "" leaves the column out.
func (t *Table) WriteText(w io.Writer, src string) error {
	lines := strings.Split(src, "\n")
	code := func(n int) string {
		if n >= 1 && n <= len(lines) {
			return clip(lines[n-1], 32)
		}
		return ""
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "line\tcode\tsim alloc MiB\tgpu alloc\tsim reserved\tgpu reserved\tsim driver\tgpu driver\tgpu time\tmalloc/free\tΔalloc\tΔreserved\tΔdriver\t")
	for _, r := range t.Rows {
		cells := []string{fmt.Sprint(r.Line), code(r.Line)}
		side := func(s *Step, f func(*Step) string) string {
			if s == nil {
				return "—"
			}
			return f(s)
		}
		alloc := func(s *Step) string { return mib(s.Allocated) }
		res := func(s *Step) string { return mib(s.Reserved) }
		drv := func(s *Step) string { return mib(s.DriverUsed) }
		cells = append(cells, side(r.Sim, alloc), side(r.GPU, alloc), side(r.Sim, res), side(r.GPU, res), side(r.Sim, drv), side(r.GPU, drv),
			side(r.GPU, func(s *Step) string { return duration(s.ElapsedNanos) }),
			side(r.GPU, func(s *Step) string { return fmt.Sprintf("%d/%d", s.DeviceAllocs, s.DeviceFrees) }))
		if r.Sim != nil && r.GPU != nil {
			cells = append(cells, diff(r.DAllocated), diff(r.DReserved), diff(r.DDriverUsed))
		} else {
			cells = append(cells, "", "", "")
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t"+reasonText(r.Reasons))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return t.writeSummary(w)
}

func (t *Table) writeSummary(w io.Writer) error {
	var b strings.Builder
	verdict := "allocated and reserved agree on every line"
	if !t.Agree {
		verdict = "allocated/reserved DISAGREE (see the allocator and diverged rows)"
	}
	fmt.Fprintf(&b, "\n%s on %s: %d lines, %s; GPU time %s\n", t.Name, t.Device, len(t.Rows), verdict, duration(t.GPUNanos))
	fmt.Fprintf(&b, "context: the GPU run's CUDA context, modules and scratch use %s more than the profile's context (%d B)\n",
		signedBytes(t.ContextDelta), t.SimContext)
	if t.SameStdout {
		b.WriteString("output: identical\n")
	} else {
		b.WriteString("output: differs (rows marked output)\n")
	}
	if t.SimError != t.GPUError {
		fmt.Fprintf(&b, "error: simulation %q, GPU %q\n", clip(t.SimError, 80), clip(t.GPUError, 80))
	}
	if t.UsedBefore != 0 || t.UsedAfter != 0 {
		state := "every byte returned"
		if t.UsedAfter != t.UsedBefore {
			state = "LEAK " + signedBytes(t.UsedAfter-t.UsedBefore)
		}
		fmt.Fprintf(&b, "leak check: driver used %d B before, %d B after: %s\n", t.UsedBefore, t.UsedAfter, state)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func reasonText(rs []Reason) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, string(r.Kind)+" "+r.Text)
	}
	return strings.Join(parts, "; ")
}

func diff(d int64) string {
	if d == 0 {
		return "="
	}
	return signedBytes(d)
}

// mib formats bytes as MiB with two decimals ("512.00").
func mib(n int64) string { return fmt.Sprintf("%.2f", float64(n)/(1<<20)) }

// fmtBytes formats a byte count in the largest fitting binary unit.
func fmtBytes(n int64) string {
	f := float64(n)
	for _, u := range []string{"B", "KiB", "MiB", "GiB"} {
		if f < 1024 && f > -1024 || u == "GiB" {
			if u == "B" {
				return fmt.Sprintf("%d B", n)
			}
			return fmt.Sprintf("%.2f %s", f, u)
		}
		f /= 1024
	}
	return ""
}

// signedBytes is fmtBytes with a sign.
func signedBytes(n int64) string {
	if n >= 0 {
		return "+" + fmtBytes(n)
	}
	return "-" + fmtBytes(-n)
}

// duration formats nanoseconds as µs or ms.
func duration(ns int64) string {
	d := time.Duration(ns)
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.0fµs", float64(ns)/1e3)
	case d < time.Second:
		return fmt.Sprintf("%.2fms", float64(ns)/1e6)
	}
	return fmt.Sprintf("%.2fs", d.Seconds())
}

// WriteSteps prints the per-line table of a run on its own (`playground run
// --backend gpu`): the allocator's figures, the driver's used memory, the
// time and the device calls of every executed line.
func WriteSteps(w io.Writer, src string, steps []Step) error {
	lines := strings.Split(src, "\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "line\tcode\tallocated MiB\treserved\tpeak\tsegments\tdriver used\ttime\tmalloc/free\tin malloc/free\t")
	for _, s := range steps {
		code := ""
		if s.Line >= 1 && s.Line <= len(lines) {
			code = clip(lines[s.Line-1], 32)
		}
		oom := ""
		if s.OOM != "" {
			oom = "OUT OF MEMORY"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%d/%d\t%s\t%s\n", s.Line, code, mib(s.Allocated), mib(s.Reserved),
			mib(s.PeakAllocated), s.Segments, mib(s.DriverUsed), duration(s.ElapsedNanos), s.DeviceAllocs, s.DeviceFrees, duration(s.DeviceNanos), oom)
	}
	return tw.Flush()
}
