// Package profile describes the devices and PyTorch versions the simulator can
// imitate: a GPU's name and capacity as PyTorch reports them, the memory the
// CUDA context takes outside PyTorch, the cuBLAS workspace sizes, and the
// version-dependent behaviour of the caching allocator (out-of-memory message
// format, memory-fraction semantics).
//
// Every figure of a profile carries a note in Profile.Measured saying whether it
// was measured on real hardware or is an estimate, and where it comes from. The
// default profile (H100 80GB HBM3 with PyTorch 2.11) is the measured one; the
// others are built from publicly reported values and are marked as such.
package profile
