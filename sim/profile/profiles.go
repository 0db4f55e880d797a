package profile

const mib = 1 << 20

// defaultAddress is the address window of every profile: 16 TiB ending at
// 0x7f0000000000, a region where CUDA's Linux VA allocator typically places
// device memory, with new chunks going up as in PyTorch's processes (every
// oracle case, recorded on H100s and H200s, agrees with that order). Only
// the order of addresses matters; see AddressModel.
var defaultAddress = AddressModel{Base: 0x7f0000000000 - 1<<44, Span: 1 << 44, Upward: true}

// contextNotes are the notes shared by the profiles whose context figures are
// copied from the H100 measurement.
func estimatedContextNotes() []Note {
	return []Note{
		{Field: "ContextBytes", Source: "estimate: copied from the H100/CUDA 13 measurement (518 MiB); depends on driver, CUDA version and GPU"},
		{Field: "DriverUsedAtInit", Source: "estimate: copied from the H100/CUDA 13 measurement (552 402 944 B)"},
	}
}

// profiles is the table behind Lookup and All.
var profiles = []Profile{
	{
		Name:              DefaultName,
		Title:             "NVIDIA H100 80GB HBM3, PyTorch 2.11 (measured)",
		GPUName:           "NVIDIA H100 80GB HBM3",
		TotalMemory:       85_017_493_504,
		ContextBytes:      518 * mib,
		DriverUsedAtInit:  552_402_944,
		ComputeMajor:      9,
		ComputeMinor:      0,
		MultiProcessors:   132,
		CuBLASWorkspace:   33_554_432,
		CuBLASLtWorkspace: 1 * mib,
		TorchVersion:      "2.11.0+cu130",
		OOMFormat:         OOM211,
		WorkspacesCounted: true,
		Address:           defaultAddress,
		Measured: []Note{
			{Field: "GPUName", Measured: true, Source: "torch.cuda.get_device_name(0) on the H100, driver 580, CUDA 13.0"},
			{Field: "TotalMemory", Measured: true, Source: "props.total_memory and cuMemGetInfo total"},
			{Field: "ContextBytes", Measured: true, Source: "NVML per-process usage minus memory_reserved() (518 MiB), quoted in the OOM message"},
			{Field: "DriverUsedAtInit", Measured: true, Source: "total − free from cuMemGetInfo right after context creation (stack.md)"},
			{Field: "MultiProcessors", Source: "public H100 SXM5 specification (132 SMs); not printed by the oracle"},
			{Field: "CuBLASWorkspace", Measured: true, Source: "first GEMM adds a 32 MiB segment (allocator spec §13)"},
			{Field: "CuBLASLtWorkspace", Measured: true, Source: "first Linear with bias adds 1 MiB in the small pool (allocator spec §13)"},
			{Field: "OOMFormat", Measured: true, Source: "str(torch.OutOfMemoryError) on 2.11 (allocator spec §10.2)"},
		},
	},
	{
		Name:              "a100-80gb-pt2.11",
		Title:             "NVIDIA A100-SXM4-80GB, PyTorch 2.11 (estimated)",
		GPUName:           "NVIDIA A100-SXM4-80GB",
		TotalMemory:       85_198_045_184,
		ContextBytes:      518 * mib,
		DriverUsedAtInit:  552_402_944,
		ComputeMajor:      8,
		ComputeMinor:      0,
		MultiProcessors:   108,
		CuBLASWorkspace:   8_519_680,
		CuBLASLtWorkspace: 1 * mib,
		TorchVersion:      "2.11.0+cu130",
		OOMFormat:         OOM211,
		WorkspacesCounted: true,
		Address:           defaultAddress,
		Measured: append([]Note{
			{Field: "TotalMemory", Source: "publicly reported totalGlobalMem of A100-SXM4-80GB (81 251 MiB); not measured here"},
			{Field: "CuBLASWorkspace", Source: "PyTorch default CUBLAS_WORKSPACE_CONFIG \":4096:2:16:8\" for non-Hopper GPUs (source read)"},
			{Field: "CuBLASLtWorkspace", Source: "assumed as on the H100 with 2.11"},
		}, estimatedContextNotes()...),
	},
	{
		Name:              "a100-40gb-pt2.11",
		Title:             "NVIDIA A100-SXM4-40GB, PyTorch 2.11 (estimated)",
		GPUName:           "NVIDIA A100-SXM4-40GB",
		TotalMemory:       42_505_273_344,
		ContextBytes:      518 * mib,
		DriverUsedAtInit:  552_402_944,
		ComputeMajor:      8,
		ComputeMinor:      0,
		MultiProcessors:   108,
		CuBLASWorkspace:   8_519_680,
		CuBLASLtWorkspace: 1 * mib,
		TorchVersion:      "2.11.0+cu130",
		OOMFormat:         OOM211,
		WorkspacesCounted: true,
		Address:           defaultAddress,
		Measured: append([]Note{
			{Field: "TotalMemory", Source: "publicly reported totalGlobalMem of A100 40GB (deviceQuery: 42 505 273 344 B); not measured here"},
			{Field: "CuBLASWorkspace", Source: "PyTorch default CUBLAS_WORKSPACE_CONFIG \":4096:2:16:8\" for non-Hopper GPUs (source read)"},
			{Field: "CuBLASLtWorkspace", Source: "assumed as on the H100 with 2.11"},
		}, estimatedContextNotes()...),
	},
	{
		Name:              "rtx4090-24gb-pt2.11",
		Title:             "NVIDIA GeForce RTX 4090 24GB, PyTorch 2.11 (estimated)",
		GPUName:           "NVIDIA GeForce RTX 4090",
		TotalMemory:       25_393_692_672,
		ContextBytes:      518 * mib,
		DriverUsedAtInit:  552_402_944,
		ComputeMajor:      8,
		ComputeMinor:      9,
		MultiProcessors:   128,
		CuBLASWorkspace:   8_519_680,
		CuBLASLtWorkspace: 1 * mib,
		TorchVersion:      "2.11.0+cu130",
		OOMFormat:         OOM211,
		WorkspacesCounted: true,
		Address:           defaultAddress,
		Measured: append([]Note{
			{Field: "TotalMemory", Source: "publicly reported totalGlobalMem of the RTX 4090 (25 393 692 672 B); not measured here"},
			{Field: "CuBLASWorkspace", Source: "PyTorch default CUBLAS_WORKSPACE_CONFIG \":4096:2:16:8\" for compute capability 8.x (source read)"},
			{Field: "CuBLASLtWorkspace", Source: "assumed as on the H100 with 2.11"},
		}, estimatedContextNotes()...),
	},
	{
		Name:              "t4-16gb-pt2.11",
		Title:             "NVIDIA Tesla T4 16GB, PyTorch 2.11 (estimated)",
		GPUName:           "Tesla T4",
		TotalMemory:       15_843_721_216,
		ContextBytes:      518 * mib,
		DriverUsedAtInit:  552_402_944,
		ComputeMajor:      7,
		ComputeMinor:      5,
		MultiProcessors:   40,
		CuBLASWorkspace:   8_519_680,
		CuBLASLtWorkspace: 1 * mib,
		TorchVersion:      "2.11.0+cu130",
		OOMFormat:         OOM211,
		WorkspacesCounted: true,
		Address:           defaultAddress,
		Measured: append([]Note{
			{Field: "TotalMemory", Source: "publicly reported totalGlobalMem of the T4 with ECC on (deviceQuery: 15 843 721 216 B); varies with driver/ECC"},
			{Field: "CuBLASWorkspace", Source: "PyTorch default CUBLAS_WORKSPACE_CONFIG \":4096:2:16:8\" for non-Hopper GPUs (source read)"},
			{Field: "CuBLASLtWorkspace", Source: "assumed as on the H100 with 2.11"},
		}, estimatedContextNotes()...),
	},
	{
		Name:              "8gb-pt1.x",
		Title:             "8 GB card, PyTorch 1.x (seed 004's era; estimated)",
		GPUName:           "GeForce GTX 1080",
		TotalMemory:       8_514_437_120,
		ContextBytes:      689_373_184,
		DriverUsedAtInit:  689_373_184,
		ComputeMajor:      6,
		ComputeMinor:      1,
		MultiProcessors:   20,
		CuBLASWorkspace:   0,
		CuBLASLtWorkspace: 0,
		TorchVersion:      "1.9.0",
		OOMFormat:         OOM19,
		LegacyFraction:    true,
		WorkspacesCounted: false,
		Address:           defaultAddress,
		Measured: []Note{
			{Field: "GPUName", Source: "estimate: seed 004 does not name its GPU; an 8 GB Pascal card of that era"},
			{Field: "TotalMemory", Source: "estimate: \"7.93 GiB total capacity\" in seed 004's OOM message; 8 514 437 120 B is a common 8 GB totalGlobalMem that formats so"},
			{Field: "ContextBytes", Source: "estimate: total − reserved − free of seed 004's OOM message (≈657 MiB), chosen so that a reserved figure made of whole 2 MiB pages reproduces the message exactly"},
			{Field: "DriverUsedAtInit", Source: "estimate: same derivation as ContextBytes"},
			{Field: "CuBLASWorkspace", Source: "PyTorch 1.x did not allocate cuBLAS workspaces through the caching allocator"},
			{Field: "TorchVersion", Source: "estimate: the ≤1.9 message format of seed 004"},
			{Field: "OOMFormat", Source: "the parenthesis form quoted in seed 004 (allocator spec §10.3)"},
		},
	},
}
