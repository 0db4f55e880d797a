package py

import (
	"strings"

	"github.com/gpumem/playground/sim/py/syntax"
)

// Module is a Python module.
type Module struct {
	Base
	Name  string
	Dict  *Dict
	flags int
	file  string
}

// Type returns module.
func (*Module) Type() *Class { return ModuleClass }

// NewModule returns a new module with an empty namespace holding __name__
// (a new reference).
func (it *Interp) NewModule(name string) *Module {
	m := &Module{Name: name, Dict: it.NewDict()}
	it.newGC(m, true)
	m.Dict.SetStr(it, "__name__", Str(name))
	return m
}

// Set stores a module attribute (v borrowed).
func (m *Module) Set(it *Interp, name string, v Value) { m.Dict.SetStr(it, name, v) }

// Add stores a module attribute, taking over the reference to v (handy for
// freshly made values: m.Add(it, "f", py.NewBuiltin(...))).
func (m *Module) Add(it *Interp, name string, v Value) {
	m.Dict.SetStr(it, name, v)
	it.DecRef(v)
}

func (m *Module) dealloc(it *Interp) { it.DecRef(m.Dict) }
func (m *Module) traverse(visit func(Value)) {
	visit(m.Dict)
}

// Import imports a dotted module name (with its parents) and returns the
// leaf module (new reference).
func (it *Interp) Import(name string) (Value, error) {
	parts := strings.Split(name, ".")
	var parent *Module
	for i := range parts {
		full := strings.Join(parts[:i+1], ".")
		m, ok := it.modules[full]
		if !ok {
			var err error
			m, err = it.loadModule(full)
			if err != nil {
				return nil, err
			}
			if parent != nil {
				parent.Dict.SetStr(it, parts[i], m)
			}
		}
		parent = m
	}
	return IncRef(parent), nil
}

// loadModule builds or executes a registered module and records it in
// sys.modules before running its body (so circular imports see it).
//
// Loading is neutral for the script: the objects it allocates do not count
// towards the automatic collection (no collection runs during it, the
// generation counts are restored after it) nor towards the step limit.
// The modules are the torch prelude and the standard library, which the
// script finds loaded or not depending on which modules the prelude loads
// eagerly (lazy.go); this keeps the script's gc timing independent of that
// (a collection would not find garbage in a module's objects anyway).
func (it *Interp) loadModule(full string) (*Module, error) {
	count, pending, steps := it.gc.count, it.gc.pending, it.steps
	it.gc.loading++
	defer func() {
		it.gc.loading--
		it.gc.count, it.gc.pending, it.steps = count, pending, steps
	}()
	def, ok := it.registry[full]
	if !ok {
		return nil, it.moduleNotFound(full)
	}
	if def.build != nil {
		m, err := def.build(it)
		if err != nil {
			return nil, err
		}
		m.flags = def.flags
		it.modules[full] = m
		if _, own := m.Dict.getStr("__getattr__"); !own {
			it.addLazyGetattr(m)
		}
		return m, nil
	}
	m := it.NewModule(full)
	m.flags = def.flags
	m.file = def.filename
	m.Dict.SetStr(it, "__file__", Str(def.filename))
	it.addLazyGetattr(m)
	it.modules[full] = m
	co, parseErr, compileErr := compileSource(full, def)
	if parseErr != nil {
		delete(it.modules, full)
		it.DecRef(m)
		return nil, it.syntaxException(parseErr)
	}
	if compileErr != nil {
		delete(it.modules, full)
		it.DecRef(m)
		return nil, NewException(SyntaxErrorClass, compileErr.Error())
	}
	if err := it.runModuleCode(co, m.Dict); err != nil {
		delete(it.modules, full)
		it.DecRef(m)
		return nil, err
	}
	return m, nil
}

func (it *Interp) moduleNotFound(full string) *Instance {
	return NewException(ModuleNotFoundError, "No module named '"+full+"' (the playground supports a subset of Python's standard library: math, gc, os, sys, time, random, collections, functools, itertools, typing, copy)")
}

// runModuleCode executes compiled module code in globals g.
func (it *Interp) runModuleCode(co *code, g *Dict) error {
	fr := &frame{it: it, code: co, globals: g, ns: g, lastLine: -1}
	fr.slots = make([]Value, len(co.varnames))
	if err := it.enter(fr); err != nil {
		return err
	}
	_, err := execStmts(fr, co.body)
	it.leave(fr)
	return err
}

// importFromName implements one name of "from m import name".
func (it *Interp) importFromName(m *Module, path, name string) (Value, error) {
	if v, ok := m.Dict.getStr(name); ok {
		return IncRef(v), nil
	}
	full := path + "." + name
	if _, ok := it.registry[full]; ok {
		sub, err := it.Import(full)
		if err != nil {
			return nil, err
		}
		return sub, nil
	}
	if _, ok := it.modules[full]; ok {
		return IncRef(it.modules[full]), nil
	}
	if _, ok := m.Dict.getStr("__getattr__"); ok {
		v, err := it.GetAttr(m, name)
		if err == nil {
			return v, nil
		}
		if e, ok := err.(*Instance); ok && e.cls.IsSubclass(AttributeError) {
			it.DecRef(e)
		} else {
			return nil, err
		}
	}
	return nil, NewException(ImportError, "cannot import name '"+name+"' from '"+path+"' (unknown location)")
}

// syntaxException converts a parser error to a SyntaxError instance.
func (it *Interp) syntaxException(err error) *Instance {
	if se, ok := err.(*syntax.Error); ok {
		cls := SyntaxErrorClass
		switch se.Kind {
		case syntax.KindIndentation:
			cls = IndentationError
		case syntax.KindTab:
			cls = TabError
		}
		return NewException(cls, se.Msg)
	}
	return NewException(SyntaxErrorClass, err.Error())
}
