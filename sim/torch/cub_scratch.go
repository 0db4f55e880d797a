package torch

// Temp storage that ATen's cub wrappers (CUB_WRAPPER in ATen/cuda/cub.cuh)
// ask the caching allocator for, as CCCL 3.0 (CUDA 13.0) sizes it on sm90.
// cub sizes each of its internal arrays up to 256 bytes and adds 255 bytes
// of alignment slack (AliasTemporaries). Measured on an H200 with PyTorch
// 2.11 (testdata/questions/q10_sort_scratch.*): every requested size there
// matches these formulas byte for byte.

// cubAlign is cub's AliasTemporaries alignment of one temporary array.
func cubAlign(b int64) int64 { return (b + 255) / 256 * 256 }

// cubAliasSlack is the slack AliasTemporaries adds to its total.
const cubAliasSlack = 255

// cubSingleTileSortItems is the most items cub::DeviceRadixSort sorts in its
// single-tile path for 8-byte keys or values (SingleTilePolicy: 256
// threads, 19 nominal 4-byte items per thread scaled to 9 for 8-byte ones);
// that path asks for 1 byte of temp storage.
const cubSingleTileSortItems = 256 * 9

// cubOnesweepTile is the items one onesweep block sorts for 8-byte keys on
// sm90 (measured: 9216 items take 2 blocks' lookback, 9217 take 3).
const cubOnesweepTile = 4608

// cubOnesweepPortion is the most items one onesweep portion covers
// (PORTION_SIZE: the largest multiple of the tile below 2^28).
const cubOnesweepPortion = (1<<28 - 1) / cubOnesweepTile * cubOnesweepTile

// cubSortPasses is the number of 8-bit onesweep passes over bits key bits.
func cubSortPasses(bits int64) int64 { return (bits + 7) / 8 }

// cubKeyBits is ATen's get_num_bits: the bits needed to hold maxKey (at
// least 1), which index_put_with_sort passes as radix_sort_pairs' end_bit.
func cubKeyBits(maxKey int64) int64 {
	bits := int64(1)
	for maxKey > 1 {
		maxKey >>= 1
		bits++
	}
	return bits
}

// cubSortPairsTemp is the temp storage of cub::DeviceRadixSort::SortPairs
// (ATen's radix_sort_pairs, no preallocated alternate buffers) for n pairs
// of keySize-byte keys and valSize-byte values sorted on bits key bits:
// 1 byte on the single-tile path, else the onesweep path's per-pass digit
// histograms (256 8-byte offsets per pass and portion), the per-block
// lookback (256 4-byte words per block), the alternate key and value
// buffers when there is more than one pass, and the per-pass counters.
func cubSortPairsTemp(n, keySize, valSize, bits int64) int64 {
	if n <= cubSingleTileSortItems {
		return 1
	}
	passes := cubSortPasses(bits)
	portions := (n + cubOnesweepPortion - 1) / cubOnesweepPortion
	blocks := (min(n, cubOnesweepPortion) + cubOnesweepTile - 1) / cubOnesweepTile
	total := cubAlign(portions*passes*256*8) + cubAlign(blocks*256*4) + cubAlign(portions*passes*4)
	if passes > 1 {
		total += cubAlign(n*keySize) + cubAlign(n*valSize)
	}
	return total + cubAliasSlack
}

// cubUniqueByKeyTile and cubExclusiveSumTile are the items per block of the
// decoupled-lookback scans behind cub::DeviceSelect::UniqueByKey (8-byte
// keys, int counting values: sm90 tuning 640 threads x 7 items) and ATen's
// exclusive_sum over int64 (the generic 128 threads x 7 items policy; the
// probe bounds it to 625..1176).
const (
	cubUniqueByKeyTile  = 640 * 7
	cubExclusiveSumTile = 128 * 7
)

// cubLookbackScanTemp is the temp storage of a decoupled-lookback scan over
// n items in tiles of tile items with 8-byte running values: one 16-byte
// tile descriptor per tile plus 32 of warp padding, then a second array of
// at most 256 bytes (measured: 1279 bytes up to 16 tiles, 1535 up to 32).
func cubLookbackScanTemp(n, tile int64) int64 {
	tiles := (n + tile - 1) / tile
	return cubAlign((tiles+32)*16) + 256 + cubAliasSlack
}
