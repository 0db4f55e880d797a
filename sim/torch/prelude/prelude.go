package prelude

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/gpumem/playground/sim/py"
)

// files holds the prelude's Python sources, laid out as PyTorch's package
// tree (torch/nn/modules/module.py is the module torch.nn.modules.module).
//
//go:embed all:torch
var files embed.FS

// Source is one prelude module.
type Source struct {
	Name     string // dotted module name, "torch.nn.modules.module"
	Filename string // the name tracebacks would show
	Package  bool   // an __init__.py: submodules may be imported
	Src      []byte
}

// Sources returns every prelude module, sorted by name.
func Sources() ([]Source, error) {
	var out []Source
	err := fs.WalkDir(files, "torch", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".py") {
			return nil
		}
		src, err := files.ReadFile(p)
		if err != nil {
			return fmt.Errorf("prelude: read %s: %w", p, err)
		}
		name := strings.TrimSuffix(p, ".py")
		pkg := path.Base(name) == "__init__"
		if pkg {
			name = path.Dir(name)
		}
		out = append(out, Source{
			Name:     strings.ReplaceAll(name, "/", "."),
			Filename: "<prelude>/" + p,
			Package:  pkg,
			Src:      src,
		})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("prelude: %w", err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// loaded is Sources' result, read once for all runs (Register is called
// by every run; the embedded files never change). Runs share its slices:
// RegisterSource only reads a source's bytes, never modifies them.
var loaded struct {
	once sync.Once
	srcs []Source
	err  error
}

// Register registers every prelude module with the interpreter (they run on
// first import, or on first access as an attribute: lazy.go). Their frames are hidden from tracebacks, as the user's
// script is what a traceback should point at.
func Register(it *py.Interp) error {
	loaded.once.Do(func() { loaded.srcs, loaded.err = Sources() })
	srcs, err := loaded.srcs, loaded.err
	if err != nil {
		return err
	}
	for _, s := range srcs {
		flags := py.HideFrames
		if s.Package {
			flags |= py.Package
		}
		it.RegisterSource(s.Name, s.Filename, s.Src, flags)
	}
	registerLazy(it)
	return nil
}
