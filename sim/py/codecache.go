package py

import (
	"fmt"
	"sync"

	"github.com/gpumem/playground/sim/py/syntax"
)

// This file caches the compiled code of RegisterSource modules across
// interpreters: every run registers the same torch prelude (thousands of
// lines), and parsing and compiling it dominated the cost of a short run.
//
// Sharing is safe because a compiled *code is immutable once compileModule
// returns and holds no counted object: the closures capture only atoms
// (None, bool, Int, *BigInt, Float, Str, Bytes, Ellipsis — never mutated
// and never reference counted), syntax nodes and compile-time tables that
// are only read at run time; every container, function, class, cell and
// default value is built by the closures in the running Interp. Compiling
// needs no Interp, so the result does not depend on which run compiled it.
//
// The key is the module's name, filename, full source text (compared, not
// hashed) and the compile-relevant flag (HideFrames; module code never
// produces line events), so a different source under the same name
// compiles afresh.
// Failures are cached too: a module that does not compile reports the same
// error at every import.

// maxCachedModules bounds the cache; beyond it modules are compiled per
// import (as before caching) instead of growing the cache without end.
const maxCachedModules = 1024

// codeKey is the part of the key that is hashed; the source text is
// compared on lookup (no hashing nor copying of the source on a hit).
type codeKey struct {
	name, filename string
	hidden         bool
}

// codeEntry is one cached compilation; once guards it so that concurrent
// first imports compile it exactly once.
type codeEntry struct {
	src        string // private copy of the source compiled
	once       sync.Once
	co         *code
	parseErr   error // a *syntax.Error or other parser error
	compileErr error
}

var codeCache struct {
	mu sync.Mutex
	m  map[codeKey][]*codeEntry
	n  int
}

// compileSource returns the compiled module code of a registered source,
// from the cache when the same source was compiled before. parseErr is
// the parser's error (to be raised as SyntaxError/IndentationError/
// TabError), compileErr the compiler's.
func compileSource(name string, def moduleDef) (co *code, parseErr, compileErr error) {
	key := codeKey{name: name, filename: def.filename, hidden: def.flags&HideFrames != 0}
	e := lookupCode(key, def.src)
	e.once.Do(func() { e.compile(key) })
	return e.co, e.parseErr, e.compileErr
}

// lookupCode finds or adds the cache entry of key and src.
func lookupCode(key codeKey, src []byte) *codeEntry {
	codeCache.mu.Lock()
	defer codeCache.mu.Unlock()
	for _, e := range codeCache.m[key] {
		if e.src == string(src) {
			return e
		}
	}
	e := &codeEntry{src: string(src)}
	if codeCache.n >= maxCachedModules {
		return e // compiled for this import only
	}
	if codeCache.m == nil {
		codeCache.m = map[codeKey][]*codeEntry{}
	}
	codeCache.m[key] = append(codeCache.m[key], e)
	codeCache.n++
	return e
}

// compile parses and compiles the entry's source.
func (e *codeEntry) compile(k codeKey) {
	defer func() {
		// A compiler bug must not leave a nil code in the cache: it becomes
		// this module's (cached, hence stable) error.
		if r := recover(); r != nil {
			e.co, e.parseErr, e.compileErr = nil, nil, fmt.Errorf("internal error compiling %s: %v", k.filename, r)
		}
	}()
	f, err := syntax.Parse(k.filename, []byte(e.src))
	if err != nil {
		e.parseErr = err
		return
	}
	e.co, e.compileErr = compileModule(f, k.filename, false, k.hidden)
}
