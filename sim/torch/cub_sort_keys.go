package torch

// cub temp storage of the sorts and scans behind torch.sort/topk/cumsum/
// nonzero (keys of any width on all their bits, int64 or int2 values),
// beside cub_scratch.go's index sorts. Measured on an H100 with PyTorch
// 2.11 / CCCL 3.0 (testdata/questions/q16_sort_scan_select.*): every size
// there matches byte for byte.

// cubOnesweepTileFor is the items one onesweep block sorts on sm90 (384
// threads × items): 12 items for 8-byte keys with 8-byte values
// (cubOnesweepTile), 14 for 4-byte keys, 15 for 2-byte keys and for 8-byte
// keys alone, 10 for 1-byte keys (values 8 bytes). Measured (q16, q16b):
// 4-byte keys 20000/100000/1e6 take 4/19/187 blocks; 2-byte keys 5377 take
// 1, 10753 take 2, 100000 take 18; 8-byte keys alone 635000 take 111;
// 1-byte keys 4097..6000 take 2, 9216 take 3, 20000 take 6 (tile bounded to
// 3334..3999: 3840 assumed).
func cubOnesweepTileFor(keySize, valSize int64) int64 {
	switch {
	case keySize == 8 && valSize == 0, keySize == 2:
		return 384 * 15
	case keySize == 8:
		return cubOnesweepTile
	case keySize == 1:
		return 384 * 10
	}
	return 384 * 14
}

// cubSortTemp is cub::DeviceRadixSort::SortPairs (valSize > 0) or
// SortKeys (valSize 0) temp storage for n keys of keySize bytes sorted on
// bits bits: cubSortPairsTemp's layout with the tile of the key and value
// sizes.
func cubSortTemp(n, keySize, valSize, bits int64) int64 {
	if n <= cubSingleTileSortItems {
		return 1
	}
	tile := cubOnesweepTileFor(keySize, valSize)
	passes := cubSortPasses(bits)
	portion := (1<<28 - 1) / tile * tile
	portions := (n + portion - 1) / portion
	blocks := (min(n, portion) + tile - 1) / tile
	total := cubAlign(portions*passes*256*8) + cubAlign(blocks*256*4) + cubAlign(portions*passes*4)
	if passes > 1 {
		total += cubAlign(n*keySize) + cubAlign(n*valSize)
	}
	return total + cubAliasSlack
}

// cubSegmentedSortTemp is cub::DeviceSegmentedRadixSort::SortPairs's temp
// storage for n keys of keySize bytes with valSize-byte values: the
// alternate key and value buffers (measured for 128 and 200 slices).
func cubSegmentedSortTemp(n, keySize, valSize int64) int64 {
	return cubAlign(n*keySize) + cubAlign(n*valSize) + cubAliasSlack
}

// cubScanTemp is cub::DeviceScan's temp storage (ATen's inclusive_scan,
// exclusive sums) over n items of size bytes: the decoupled-lookback tile
// descriptors (8 bytes per tile for items of up to 4 bytes, 16 for 8-byte
// items, 32 tiles of padding) and a second array of 256 bytes. Tiles are
// 128 threads × 15·4/size items for 4- and 8-byte items (1920 and 896,
// measured); 2-byte items (half, bfloat16) take 3125..3472 per tile
// (measured at 1e6 items; 3328 assumed).
func cubScanTemp(n, size int64) int64 {
	desc := int64(8)
	if size > 4 {
		desc = 16
	}
	tile := 128 * max(1, 15*4/size)
	if size == 2 {
		tile = 128 * 26
	}
	tiles := (max(n, 1) + tile - 1) / tile
	return cubAlign((tiles+32)*desc) + 256 + cubAliasSlack
}
