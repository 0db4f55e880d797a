package py

import "strings"

// This file makes registered modules load on first use, as PyTorch's
// torch/__init__.py does with its module __getattr__ (PEP 562): the run
// need not execute (nor, in a fresh process, parse and compile) the prelude
// modules a script never touches, yet every attribute the script could see
// after an eager import is there when it asks.
//
// A loaded module answers a missing attribute x with
//   - the submodule M.x, when it is registered and not loaded yet (what an
//     eager import of every registered module would have left as an
//     attribute: Import sets it on the parent);
//   - an attribute registered with RegisterLazyAttr (a class that the
//     package's __init__ would have imported from a submodule).
//
// Loading a module does not count towards the cyclic collector nor the step
// limit (loadModule), so when a module loads does not change what the
// script observes.

// RegisterLazyAttr makes module.name the attribute name of the module from
// (imported on first access), as `from <from> import <name>` in module's
// body would bind it. Call it before module is imported.
func (it *Interp) RegisterLazyAttr(module, name, from string) {
	if it.lazy == nil {
		it.lazy = map[string]map[string]string{}
	}
	if it.lazy[module] == nil {
		it.lazy[module] = map[string]string{}
	}
	it.lazy[module][name] = from
}

// hasLazyAttrs reports whether module full has attributes to load on
// demand: registered attributes or registered submodules.
func (it *Interp) hasLazyAttrs(full string) bool {
	if len(it.lazy[full]) > 0 {
		return true
	}
	prefix := full + "."
	for name := range it.registry {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// addLazyGetattr gives module m a __getattr__ (PEP 562) that loads its
// lazy attributes; a __getattr__ of the module's own body replaces it.
func (it *Interp) addLazyGetattr(m *Module) {
	if !it.hasLazyAttrs(m.Name) {
		return
	}
	name := m.Name
	m.Add(it, "__getattr__", NewBuiltin("__getattr__", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 || len(kw) != 0 {
			return nil, newTypeError("__getattr__() takes exactly one argument")
		}
		attr, ok := args[0].(Str)
		if !ok {
			return nil, newTypeError("attribute name must be string")
		}
		return it.lazyAttr(name, string(attr))
	}))
}

// lazyAttr loads the attribute attr of module name (a new reference), or
// raises the AttributeError a plain module raises.
func (it *Interp) lazyAttr(name, attr string) (Value, error) {
	m, ok := it.modules[name]
	if !ok {
		return nil, NewException(AttributeError, "module '"+name+"' has no attribute '"+attr+"'")
	}
	if from, ok := it.lazy[name][attr]; ok {
		src, err := it.Import(from)
		if err != nil {
			return nil, err
		}
		v := src
		if from != name+"."+attr {
			v, err = it.GetAttr(src, attr)
			it.DecRef(src)
			if err != nil {
				return nil, err
			}
		}
		m.Dict.SetStr(it, attr, v)
		return v, nil
	}
	full := name + "." + attr
	if _, ok := it.modules[full]; !ok {
		if _, ok := it.registry[full]; ok {
			return it.Import(full)
		}
	}
	return nil, NewException(AttributeError, "module '"+name+"' has no attribute '"+attr+"'")
}
