package alloc

import "errors"

// Device is what lies under the allocator: the simulated device (SimDevice)
// or a real GPU (package gpu implements it with the CUDA driver API).
type Device interface {
	// Malloc obtains size bytes (cudaMalloc). It returns ErrDeviceOOM when the
	// device is out of memory; any other error is passed on to the caller of
	// Allocator.Malloc as it is.
	Malloc(size int64) (addr uint64, err error)
	// Free returns a range obtained from Malloc (cudaFree).
	Free(addr uint64, size int64) error
	// MemGetInfo reports cudaMemGetInfo: free and total bytes of the device.
	MemGetInfo() (free, total int64)

	// Reserve reserves a virtual address range without memory behind it
	// (cuMemAddressReserve), for expandable segments.
	Reserve(size int64) (addr uint64, err error)
	// Map backs [addr, addr+size) of a reserved range with physical memory
	// (cuMemCreate + cuMemMap). ErrDeviceOOM when the memory is not there.
	Map(addr uint64, size int64) error
	// Unmap releases the physical memory of [addr, addr+size).
	Unmap(addr uint64, size int64) error
	// ReleaseRange gives a reserved range back (cuMemAddressFree).
	ReleaseRange(addr uint64, size int64) error
}

// ErrDeviceOOM is the device's out-of-memory condition (cudaErrorMemoryAllocation).
var ErrDeviceOOM = errors.New("alloc: device out of memory")
