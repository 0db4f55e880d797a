package torch

// rnnPackedWSTable holds the measured cuDNN RNN workspaces for packed
// input (H100, PyTorch 2.11, cuDNN 9.19): the q26 rows
// (testdata/questions/q26_packed_norms_dp.out, train and eval measured) and
// the two RNNs of oracle case q065 (LSTM: train only; GRU: eval only; the
// other column copies it, as every measured LSTM/GRU row has train ==
// eval). TestRNNPackedTable checks it against q26's rows. Fields as
// rnnWSEntry, with seq·batch replaced by the packed tokens T:
// mode, dtype, inp, hidden, layers, dirs, tokens, seq, batch, weightBytes, train, eval.
var rnnPackedWSTable = []rnnPackedWSEntry{
	{"LSTM", Float32, 64, 128, 1, 1, 89, 20, 8, 397312, 8988928, 8988928},
	{"LSTM", Float32, 64, 128, 2, 2, 89, 20, 8, 2375680, 36591872, 36591872},
	{"GRU", Float32, 64, 128, 1, 1, 89, 20, 8, 297984, 8832768, 8832768},
	{"RNN_TANH", Float32, 64, 128, 1, 1, 89, 20, 8, 99328, 8582400, 8536832},
	{"LSTM", Float16, 64, 128, 1, 1, 89, 20, 8, 198656, 8688896, 8688896},
	{"LSTM", Float32, 64, 128, 1, 1, 160, 20, 8, 397312, 9134336, 9134336},
	{"LSTM", Float32, 64, 128, 1, 1, 27, 20, 8, 397312, 8861952, 8861952},
	{"LSTM", Float32, 64, 128, 1, 1, 80, 10, 8, 397312, 8970496, 8970496},
	{"LSTM", Float32, 256, 512, 1, 1, 767, 50, 32, 6307840, 21356800, 21356800},
	{"LSTM", Float32, 256, 512, 2, 2, 767, 50, 32, 37814272, 92250368, 92250368},
	{"GRU", Float32, 256, 512, 2, 1, 767, 50, 32, 11034624, 32893184, 32893184},
	{"LSTM", Float32, 128, 256, 2, 1, 700, 35, 20, 3686400, 23560448, 23560448},
	// oracle q065
	{"LSTM", Float32, 128, 256, 2, 2, 452, 50, 16, 9469952, 49070336, 49070336},
	{"GRU", Float32, 64, 128, 1, 1, 110, 30, 6, 297984, 8861952, 8861952},
}
