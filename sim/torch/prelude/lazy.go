package prelude

import "github.com/gpumem/playground/sim/py"

// lazyClasses are the layer classes that torch.nn and torch.nn.modules
// export from their submodules, by submodule: PyTorch's __init__ files
// import them all, the playground's import each submodule on the first
// access to one of its classes (py.Interp.RegisterLazyAttr), so that a run
// parses, compiles and executes only the layers its script uses. The
// __init__ files import the rest (Module, Linear, Parameter) eagerly. A
// slice, not a map: it is laid out as data, with no initialisation code.
var lazyClasses = []struct {
	from  string
	names []string
}{
	{"torch.nn.modules.activation", []string{"CELU", "ELU", "GELU", "GLU", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh", "LeakyReLU",
		"LogSigmoid", "LogSoftmax", "Mish", "MultiheadAttention", "ReLU", "ReLU6", "SELU", "Sigmoid", "SiLU", "Softmax", "Softplus",
		"Softshrink", "Softsign", "Tanh", "Tanhshrink", "Threshold"}},
	{"torch.nn.modules.batchnorm", []string{"BatchNorm1d", "BatchNorm2d", "BatchNorm3d"}},
	{"torch.nn.modules.container", []string{"ModuleDict", "ModuleList", "Sequential"}},
	{"torch.nn.modules.conv", []string{"Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"}},
	{"torch.nn.modules.dropout", []string{"Dropout", "Dropout1d", "Dropout2d", "Dropout3d"}},
	{"torch.nn.modules.distance", []string{"CosineSimilarity"}},
	{"torch.nn.modules.flatten", []string{"Flatten", "Unflatten"}},
	{"torch.nn.modules.loss", []string{"BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "HuberLoss", "KLDivLoss", "L1Loss", "MSELoss", "NLLLoss", "SmoothL1Loss"}},
	{"torch.nn.modules.normalization", []string{"GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "LayerNorm", "RMSNorm"}},
	{"torch.nn.modules.padding", []string{"CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
		"ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d",
		"ZeroPad1d", "ZeroPad2d", "ZeroPad3d"}},
	{"torch.nn.modules.pixelshuffle", []string{"PixelShuffle", "PixelUnshuffle"}},
	{"torch.nn.modules.pooling", []string{"AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool3d",
		"AvgPool1d", "AvgPool2d", "AvgPool3d", "MaxPool1d", "MaxPool2d", "MaxPool3d"}},
	{"torch.nn.modules.rnn", []string{"GRU", "LSTM", "RNN", "RNNBase"}},
	{"torch.nn.modules.sparse", []string{"Embedding"}},
	{"torch.nn.modules.upsampling", []string{"Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d"}},
	{"torch.nn.modules.transformer", []string{"Transformer", "TransformerDecoder", "TransformerDecoderLayer", "TransformerEncoder", "TransformerEncoderLayer"}},
	// session 14, H3
	{"torch.nn.modules.param_containers", []string{"ParameterDict", "ParameterList"}},
	{"torch.nn.modules.cells", []string{"GRUCell", "LSTMCell", "RNNCell", "RNNCellBase"}},
	{"torch.nn.modules.activation_more", []string{"PReLU", "Softmax2d", "Softmin"}},
	{"torch.nn.modules.lrn", []string{"LocalResponseNorm"}},
	{"torch.nn.modules.pooling_adaptive_max", []string{"AdaptiveMaxPool1d", "AdaptiveMaxPool2d"}},
	{"torch.nn.modules.fold", []string{"Fold", "Unfold"}},
	{"torch.nn.modules.channelshuffle", []string{"ChannelShuffle"}},
	{"torch.nn.modules.distance_pairwise", []string{"PairwiseDistance"}},
	{"torch.nn.modules.bilinear", []string{"Bilinear"}},
	{"torch.nn.modules.embedding_bag", []string{"EmbeddingBag"}},
	{"torch.nn.modules.loss_margin", []string{"CosineEmbeddingLoss", "GaussianNLLLoss", "HingeEmbeddingLoss", "MarginRankingLoss",
		"MultiLabelSoftMarginLoss", "MultiMarginLoss", "PoissonNLLLoss", "SoftMarginLoss", "TripletMarginLoss"}},
}

// registerLazy registers lazyClasses as attributes of torch.nn and
// torch.nn.modules. Submodules need no registration: a package's
// registered submodules load on first access by themselves.
func registerLazy(it *py.Interp) {
	for _, c := range lazyClasses {
		for _, n := range c.names {
			it.RegisterLazyAttr("torch.nn", n, c.from)
			it.RegisterLazyAttr("torch.nn.modules", n, c.from)
		}
	}
	it.RegisterLazyAttr("torch", "Generator", "torch._generator")
	// F's mask helpers (torch/nn/functional.py), written in Python
	for _, n := range []string{"_canonical_mask", "_none_or_dtype"} {
		it.RegisterLazyAttr("torch.nn.functional", n, "torch.nn.modules._mha")
	}
	// F's functions written in Python (torch/nn/_functional_more.py) and
	// the SimpleCell RNN cells (torch/nn/_cells.py)
	for _, n := range []string{"softmin", "local_response_norm", "embedding_bag"} {
		it.RegisterLazyAttr("torch.nn.functional", n, "torch.nn._functional_more")
	}
	for _, n := range []string{"multilabel_soft_margin_loss", "gaussian_nll_loss"} {
		it.RegisterLazyAttr("torch.nn.functional", n, "torch.nn._losses_margin")
	}
	// optimizers loaded on first use (torch/optim/{nadam,radam,adamax}.py)
	for _, o := range [][2]string{{"NAdam", "nadam"}, {"RAdam", "radam"}, {"Adamax", "adamax"}} {
		it.RegisterLazyAttr("torch.optim", o[0], "torch.optim."+o[1])
	}
	for _, n := range []string{"rnn_tanh_cell", "rnn_relu_cell"} {
		it.RegisterLazyAttr("torch", n, "torch.nn._cells")
	}
	// nn.DataParallel (torch/nn/parallel/data_parallel.py), the hook-based
	// weight/spectral norm (torch/nn/utils/_norm_hooks.py) and the composite
	// ops under weight norm (torch/nn/utils/_weight_norm_ops.py): session 14 H6
	it.RegisterLazyAttr("torch.nn", "DataParallel", "torch.nn.parallel.data_parallel")
	for _, n := range []string{"weight_norm", "remove_weight_norm", "spectral_norm", "remove_spectral_norm"} {
		it.RegisterLazyAttr("torch.nn.utils", n, "torch.nn.utils._norm_hooks")
	}
	for _, n := range []string{"norm_except_dim", "_weight_norm"} {
		it.RegisterLazyAttr("torch", n, "torch.nn.utils._weight_norm_ops")
	}
	// APIs whose memory is not modelled: they raise NotImplementedError
	it.RegisterLazyAttr("torch", "compile", "torch._not_simulated")
	for _, n := range []string{"Stream", "Event", "stream", "current_stream", "default_stream"} {
		it.RegisterLazyAttr("torch.cuda", n, "torch._not_simulated")
	}
}
