package prelude

import "github.com/gpumem/playground/sim/py"

// The prelude's Python sources are laid out as PyTorch's package tree under
// torch/ (torch/nn/modules/module.py is the module torch.nn.modules.module).
// sources_gen.go embeds each file into its own []byte variable and lists
// them in table (TestSourcesTable regenerates it: go test
// ./sim/torch/prelude -run TestSourcesTable -update): the bytes stay where
// the linker put them, so a process's first run neither walks an embedded
// file tree nor copies ~250 KB of sources (~35 ms of a first visit in the
// browser did both). After removing a file, delete its two entries by hand
// first: the package does not build while an embed pattern matches nothing.

// Source is one prelude module.
type Source struct {
	Name     string // dotted module name, "torch.nn.modules.module"
	Filename string // the name tracebacks would show
	Package  bool   // an __init__.py: submodules may be imported
	Src      []byte // the file's bytes, shared: never modify them
}

// entry is a row of table. It holds a pointer to the file's variable, not
// the slice: the linker then lays the whole table out as data, with no
// initialisation code to compile and run at start-up (wasm: every function
// a first run reaches is compiled on the page's main thread first).
type entry struct {
	name, file string
	pkg        bool
	src        *[]byte
}

// Sources returns every prelude module, sorted by name.
func Sources() []Source {
	out := make([]Source, len(table))
	for i, e := range table {
		out[i] = Source{Name: e.name, Filename: e.file, Package: e.pkg, Src: *e.src}
	}
	return out
}

// Register registers every prelude module with the interpreter (they run on
// first import, or on first access as an attribute: lazy.go). Their frames
// are hidden from tracebacks, as the user's script is what a traceback
// should point at. The sources are compiled into the binary, so it cannot
// fail; the error stays for the callers' sake.
func Register(it *py.Interp) error {
	for i := range table {
		e := &table[i]
		flags := py.HideFrames
		if e.pkg {
			flags |= py.Package
		}
		it.RegisterSource(e.name, e.file, *e.src, flags)
	}
	registerLazy(it)
	return nil
}
