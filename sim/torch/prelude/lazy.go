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
	{"torch.nn.modules.activation", []string{"GELU", "LeakyReLU", "LogSoftmax", "MultiheadAttention", "ReLU", "Sigmoid", "SiLU", "Softmax", "Tanh"}},
	{"torch.nn.modules.batchnorm", []string{"BatchNorm1d", "BatchNorm2d", "BatchNorm3d"}},
	{"torch.nn.modules.container", []string{"ModuleDict", "ModuleList", "Sequential"}},
	{"torch.nn.modules.conv", []string{"Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"}},
	{"torch.nn.modules.dropout", []string{"Dropout"}},
	{"torch.nn.modules.flatten", []string{"Flatten"}},
	{"torch.nn.modules.loss", []string{"BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "L1Loss", "MSELoss", "NLLLoss"}},
	{"torch.nn.modules.normalization", []string{"LayerNorm"}},
	{"torch.nn.modules.pooling", []string{"AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool3d",
		"AvgPool1d", "AvgPool2d", "AvgPool3d", "MaxPool1d", "MaxPool2d", "MaxPool3d"}},
	{"torch.nn.modules.rnn", []string{"GRU", "LSTM", "RNN", "RNNBase"}},
	{"torch.nn.modules.sparse", []string{"Embedding"}},
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
}
