package py

import (
	"math"
	"math/big"
	"strconv"
	"time"

	"github.com/gpumem/playground/sim/py/pyfmt"
)

// Classes of the collections module (dict flavours).
var (
	OrderedDictClass = newBuiltinClass("OrderedDict", DictClass)
	DefaultDictClass = newBuiltinClass("defaultdict", DictClass)
	PartialClass     = newBuiltinClass("partial", ObjectClass)
	StdoutClass      = newBuiltinClass("TextIOWrapper", ObjectClass)
)

func init() {
	OrderedDictClass.Module = "collections"
	DefaultDictClass.Module = "collections"
	PartialClass.Module = "functools"
	OrderedDictClass.newFn = func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		d, err := DictClass.newFn(it, args, kw)
		if err != nil {
			return nil, err
		}
		d.(*Dict).cls = OrderedDictClass
		return d, nil
	}
	OrderedDictClass.setMethod("move_to_end", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		var key Value
		last := true
		if err := UnpackArgs("move_to_end", args, kw, "key", &key, "last?", &last); err != nil {
			return nil, err
		}
		d := self.(*Dict)
		i, hk, err := it.dictLookup(&d.dictCore, key)
		if err != nil {
			return nil, err
		}
		if i < 0 {
			return nil, it.keyError(key)
		}
		k, v := d.remove(i)
		if last {
			d.insertNew(hk, k, v)
		} else {
			rest := d.entries
			d.entries = nil
			d.index = map[any]int32{}
			d.n = 0
			d.insertNew(hk, k, v)
			for _, e := range rest {
				if e.key != nil {
					d.insertNew(e.hk, e.key, e.value)
				}
			}
		}
		return None, nil
	})
	DefaultDictClass.newFn = func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		var factory Value = None
		if len(args) > 0 {
			factory = args[0]
			args = args[1:]
		}
		d, err := DictClass.newFn(it, args, kw)
		if err != nil {
			return nil, err
		}
		dd := d.(*Dict)
		dd.cls = DefaultDictClass
		dd.factory = IncRef(factory)
		it.maybeTrack(dd)
		return d, nil
	}
	DefaultDictClass.setProp("default_factory", func(it *Interp, self Value) (Value, error) {
		return optNone(self.(*Dict).factory), nil
	}, nil)
	PartialClass.newFn = func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) < 1 {
			return nil, newTypeError("type 'partial' takes at least one argument")
		}
		p := &Partial{fn: IncRef(args[0])}
		for _, a := range args[1:] {
			p.args = append(p.args, IncRef(a))
		}
		for _, k := range kw {
			p.kw = append(p.kw, Kwarg{k.Name, IncRef(k.Value)})
		}
		it.newGC(p, true)
		return p, nil
	}
	StdoutClass.setMethod("write", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		var s string
		if err := UnpackArgs("write", args, kw, "s", &s); err != nil {
			return nil, err
		}
		return Int(strLen(s)), it.write(s)
	})
	StdoutClass.setMethod("flush", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		return None, nil
	})
}

// Partial is functools.partial.
type Partial struct {
	Base
	fn   Value
	args []Value
	kw   []Kwarg
}

// Type returns functools.partial.
func (*Partial) Type() *Class { return PartialClass }

// Call calls the wrapped function with the stored and given arguments.
func (p *Partial) Call(it *Interp, args []Value, kw []Kwarg) (Value, error) {
	all := append(append([]Value(nil), p.args...), args...)
	kws := append(append([]Kwarg(nil), p.kw...), kw...)
	return it.Call(p.fn, all, kws)
}

func (p *Partial) dealloc(it *Interp) {
	it.DecRef(p.fn)
	it.decRefAll(p.args)
	for _, k := range p.kw {
		it.DecRef(k.Value)
	}
}

func (p *Partial) traverse(visit func(Value)) {
	visit(p.fn)
	for _, a := range p.args {
		visit(a)
	}
	for _, k := range p.kw {
		visit(k.Value)
	}
}

// registerStdlib registers the Python library modules the playground offers.
func (it *Interp) registerStdlib() {
	it.RegisterModule("math", buildMath)
	it.RegisterModule("gc", buildGC)
	it.RegisterModule("os", buildOS)
	it.RegisterModule("sys", buildSys)
	it.RegisterModule("time", buildTime)
	it.RegisterModule("random", buildRandom)
	it.RegisterModule("collections", buildCollections)
	it.RegisterModule("functools", buildFunctools)
	it.RegisterModule("itertools", buildItertools)
	it.RegisterModule("typing", buildTyping)
	it.RegisterModule("copy", buildCopy)
	it.RegisterModule("warnings", func(it *Interp) (*Module, error) {
		m := it.NewModule("warnings")
		noop := func(it *Interp, args []Value, kw []Kwarg) (Value, error) { return None, nil }
		for _, n := range []string{"warn", "filterwarnings", "simplefilter", "resetwarnings"} {
			m.Add(it, n, NewBuiltin(n, noop))
		}
		return m, nil
	})
}

func fn1(m *Module, it *Interp, name string, f func(it *Interp, x Value) (Value, error)) {
	m.Add(it, name, NewBuiltin(name, func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 || len(kw) > 0 {
			return nil, newTypeError(name + "() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
		}
		return f(it, args[0])
	}))
}

// floatArg converts an argument of a math function to a float (asFloat),
// raising TypeError for what has no float value.
func (it *Interp) floatArg(name string, v Value) (float64, error) {
	f, ok, err := it.asFloat(v)
	if err == nil && !ok {
		err = newTypeError("must be real number, not " + v.Type().Name)
	}
	return f, err
}

// asFloat converts v to a float as CPython's PyFloat_AsDouble does: numbers
// directly, instances of Python classes through __float__ (which must return
// a float) or else __index__; ok is false when v has neither.
func (it *Interp) asFloat(v Value) (f float64, ok bool, err error) {
	if f, ok, err = toFloat(v); ok || err != nil {
		return f, ok, err
	}
	x, isInst := v.(*Instance)
	if !isInst {
		return 0, false, nil
	}
	name := "__float__"
	m := x.cls.Lookup(name)
	if m == nil {
		name = "__index__"
		if m = x.cls.Lookup(name); m == nil {
			return 0, false, nil
		}
	}
	r, err := it.callMethodValue(m, x, nil, nil)
	if err != nil {
		return 0, true, err
	}
	defer it.DecRef(r)
	_, isFloat := r.(Float)
	if name == "__float__" && isFloat {
		return toFloat(r)
	}
	if name == "__index__" && !isFloat {
		if f, ok, err := toFloat(r); ok || err != nil {
			return f, true, err
		}
	}
	if name == "__float__" {
		return 0, true, newTypeError(x.cls.Name + ".__float__ returned non-float (type " + r.Type().Name + ")")
	}
	return 0, true, newTypeError("__index__ returned non-int (type " + r.Type().Name + ")")
}

func buildMath(it *Interp) (*Module, error) {
	m := it.NewModule("math")
	m.Set(it, "pi", Float(math.Pi))
	m.Set(it, "e", Float(math.E))
	m.Set(it, "tau", Float(2*math.Pi))
	m.Set(it, "inf", Float(math.Inf(1)))
	m.Set(it, "nan", Float(math.NaN()))
	simple := map[string]func(float64) float64{
		"exp": math.Exp, "sin": math.Sin, "cos": math.Cos, "tan": math.Tan, "atan": math.Atan,
		"asin": math.Asin, "acos": math.Acos, "tanh": math.Tanh, "sinh": math.Sinh, "cosh": math.Cosh,
		"fabs": math.Abs, "erf": math.Erf, "expm1": math.Expm1, "log1p": math.Log1p,
	}
	for _, name := range []string{"exp", "sin", "cos", "tan", "atan", "asin", "acos", "tanh", "sinh", "cosh", "fabs", "erf", "expm1", "log1p"} {
		f := simple[name]
		n := name
		fn1(m, it, n, func(it *Interp, x Value) (Value, error) {
			v, err := it.floatArg(n, x)
			if err != nil {
				return nil, err
			}
			r := f(v)
			if math.IsNaN(r) && !math.IsNaN(v) {
				return nil, newValueError("math domain error")
			}
			if math.IsInf(r, 0) && !math.IsInf(v, 0) {
				return nil, NewException(OverflowError, "math range error")
			}
			return Float(r), nil
		})
	}
	fn1(m, it, "sqrt", func(it *Interp, x Value) (Value, error) {
		v, err := it.floatArg("sqrt", x)
		if err != nil {
			return nil, err
		}
		if v < 0 {
			return nil, newValueError("math domain error")
		}
		return Float(math.Sqrt(v)), nil
	})
	for _, n := range []string{"floor", "ceil", "trunc"} {
		name := n
		fn1(m, it, name, func(it *Interp, x Value) (Value, error) {
			if isIntLike(x) {
				return it.toInt(x)
			}
			v, err := it.floatArg(name, x)
			if err != nil {
				return nil, err
			}
			switch name {
			case "floor":
				v = math.Floor(v)
			case "ceil":
				v = math.Ceil(v)
			default:
				v = math.Trunc(v)
			}
			return it.toInt(Float(v))
		})
	}
	m.Add(it, "log", NewBuiltin("log", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) < 1 || len(args) > 2 {
			return nil, newTypeError("log expected 1 or 2 arguments")
		}
		v, err := it.floatArg("log", args[0])
		if err != nil {
			return nil, err
		}
		if b, ok := args[0].(*BigInt); ok && b.v.Sign() > 0 {
			v = bigLog(b.v)
		} else if v <= 0 {
			return nil, newValueError("math domain error")
		} else {
			v = math.Log(v)
		}
		if len(args) == 2 {
			b, err := it.floatArg("log", args[1])
			if err != nil {
				return nil, err
			}
			return Float(v / math.Log(b)), nil
		}
		return Float(v), nil
	}))
	for _, n := range []string{"log2", "log10"} {
		name := n
		fn1(m, it, name, func(it *Interp, x Value) (Value, error) {
			v, err := it.floatArg(name, x)
			if err != nil {
				return nil, err
			}
			if v <= 0 {
				return nil, newValueError("math domain error")
			}
			if name == "log2" {
				return Float(math.Log2(v)), nil
			}
			return Float(math.Log10(v)), nil
		})
	}
	for _, n := range []string{"isnan", "isinf", "isfinite"} {
		name := n
		fn1(m, it, name, func(it *Interp, x Value) (Value, error) {
			v, err := it.floatArg(name, x)
			if err != nil {
				return nil, err
			}
			switch name {
			case "isnan":
				return boolOf(math.IsNaN(v)), nil
			case "isinf":
				return boolOf(math.IsInf(v, 0)), nil
			}
			return boolOf(!math.IsNaN(v) && !math.IsInf(v, 0)), nil
		})
	}
	m.Add(it, "pow", NewBuiltin("pow", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 2 {
			return nil, newTypeError("pow expected 2 arguments, got " + strconv.Itoa(len(args)))
		}
		x, err := it.floatArg("pow", args[0])
		if err != nil {
			return nil, err
		}
		y, err := it.floatArg("pow", args[1])
		if err != nil {
			return nil, err
		}
		return Float(floatPow(x, y)), nil
	}))
	m.Add(it, "atan2", NewBuiltin("atan2", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 2 {
			return nil, newTypeError("atan2 expected 2 arguments, got " + strconv.Itoa(len(args)))
		}
		y, _ := it.floatArg("atan2", args[0])
		x, _ := it.floatArg("atan2", args[1])
		return Float(math.Atan2(y, x)), nil
	}))
	m.Add(it, "isclose", NewBuiltin("isclose", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		var a, b float64
		rel, abs := 1e-9, 0.0
		if err := UnpackArgs("isclose", args, kw, "a", &a, "b", &b, "*", "rel_tol?", &rel, "abs_tol?", &abs); err != nil {
			return nil, err
		}
		if a == b {
			return True, nil
		}
		d := math.Abs(a - b)
		return boolOf(d <= math.Max(rel*math.Max(math.Abs(a), math.Abs(b)), abs)), nil
	}))
	m.Add(it, "gcd", NewBuiltin("gcd", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		r := new(big.Int)
		for _, a := range args {
			b, ok := toBig(a)
			if !ok {
				return nil, newTypeError("'" + a.Type().Name + "' object cannot be interpreted as an integer")
			}
			r.GCD(nil, nil, r, new(big.Int).Abs(b))
		}
		return MakeInt(r), nil
	}))
	fn1(m, it, "factorial", func(it *Interp, x Value) (Value, error) {
		n, ok := smallInt(x)
		if !ok {
			return nil, newTypeError("'" + x.Type().Name + "' object cannot be interpreted as an integer")
		}
		if n < 0 {
			return nil, newValueError("factorial() not defined for negative values")
		}
		if n > 5000 {
			return nil, &LimitError{Msg: "an integer grew beyond the playground's size limit"}
		}
		return MakeInt(new(big.Int).MulRange(1, n)), nil
	})
	m.Add(it, "prod", NewBuiltin("prod", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		var iterable Value
		var start Value = Int(1)
		if err := UnpackArgs("prod", args, kw, "iterable", &iterable, "*", "start?", &start); err != nil {
			return nil, err
		}
		vs, err := it.iterToSlice(iterable)
		if err != nil {
			return nil, err
		}
		defer it.decRefAll(vs)
		acc := IncRef(start)
		for _, v := range vs {
			r, err := it.binaryOp(OpMul, acc, v)
			it.DecRef(acc)
			if err != nil {
				return nil, err
			}
			acc = r
		}
		return acc, nil
	}))
	m.Add(it, "fsum", NewBuiltin("fsum", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("fsum() takes exactly one argument")
		}
		vs, err := it.iterToSlice(args[0])
		if err != nil {
			return nil, err
		}
		defer it.decRefAll(vs)
		s := new(big.Float).SetPrec(2000)
		for _, v := range vs {
			f, err := it.floatArg("fsum", v)
			if err != nil {
				return nil, err
			}
			s.Add(s, new(big.Float).SetFloat64(f))
		}
		f, _ := s.Float64()
		return Float(f), nil
	}))
	m.Add(it, "comb", NewBuiltin("comb", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		var n, k int64
		if err := UnpackArgs("comb", args, kw, "n", &n, "k", &k); err != nil {
			return nil, err
		}
		if k < 0 || n < 0 {
			return nil, newValueError("n must be a non-negative integer")
		}
		return MakeInt(new(big.Int).Binomial(n, k)), nil
	}))
	return m, nil
}

func bigLog(b *big.Int) float64 {
	bl := b.BitLen()
	if bl < 1000 {
		f, _ := new(big.Float).SetInt(b).Float64()
		return math.Log(f)
	}
	shifted := new(big.Int).Rsh(b, uint(bl-64))
	f, _ := new(big.Float).SetInt(shifted).Float64()
	return math.Log(f) + float64(bl-64)*math.Ln2
}

func buildGC(it *Interp) (*Module, error) {
	m := it.NewModule("gc")
	m.Add(it, "collect", NewBuiltin("collect", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		gen := 2
		if err := UnpackArgs("collect", args, kw, "generation?", &gen); err != nil {
			return nil, err
		}
		if gen < 0 || gen > 2 {
			return nil, newValueError("invalid generation")
		}
		return Int(it.Collect(gen)), nil
	}))
	m.Add(it, "disable", NewBuiltin("disable", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		it.gc.enabled = false
		return None, nil
	}))
	m.Add(it, "enable", NewBuiltin("enable", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		it.gc.enabled = true
		return None, nil
	}))
	m.Add(it, "isenabled", NewBuiltin("isenabled", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		return boolOf(it.gc.enabled), nil
	}))
	m.Add(it, "get_threshold", NewBuiltin("get_threshold", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		t := it.gc.threshold
		return it.NewTuple([]Value{Int(t[0]), Int(t[1]), Int(t[2])}), nil
	}))
	m.Add(it, "set_threshold", NewBuiltin("set_threshold", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) < 1 || len(args) > 3 {
			return nil, newTypeError("set_threshold() takes 1 to 3 arguments")
		}
		for i, a := range args {
			n, ok := smallInt(a)
			if !ok {
				return nil, newTypeError("'" + a.Type().Name + "' object cannot be interpreted as an integer")
			}
			it.gc.threshold[i] = int(n)
		}
		return None, nil
	}))
	m.Add(it, "get_count", NewBuiltin("get_count", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		c := it.gc.count
		return it.NewTuple([]Value{Int(c[0]), Int(c[1]), Int(c[2])}), nil
	}))
	m.Add(it, "freeze", NewBuiltin("freeze", func(it *Interp, args []Value, kw []Kwarg) (Value, error) { return None, nil }))
	return m, nil
}

func buildOS(it *Interp) (*Module, error) {
	m := it.NewModule("os")
	if it.env == nil {
		it.env = it.NewDict()
		keys := make([]string, 0, len(it.opts.Env))
		for k := range it.opts.Env {
			keys = append(keys, k)
		}
		sortStrings(keys)
		for _, k := range keys {
			it.env.SetStr(it, k, Str(it.opts.Env[k]))
		}
	}
	m.Set(it, "environ", it.env)
	m.Set(it, "sep", Str("/"))
	m.Set(it, "name", Str("posix"))
	m.Add(it, "getenv", NewBuiltin("getenv", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		var key string
		var def Value = None
		if err := UnpackArgs("getenv", args, kw, "key", &key, "default?", &def); err != nil {
			return nil, err
		}
		if v, ok := it.env.getStr(key); ok {
			return IncRef(v), nil
		}
		return IncRef(def), nil
	}))
	m.Add(it, "cpu_count", NewBuiltin("cpu_count", func(it *Interp, args []Value, kw []Kwarg) (Value, error) { return Int(8), nil }))
	m.Add(it, "getpid", NewBuiltin("getpid", func(it *Interp, args []Value, kw []Kwarg) (Value, error) { return Int(4242), nil }))
	return m, nil
}

func buildSys(it *Interp) (*Module, error) {
	m := it.NewModule("sys")
	m.Add(it, "getrefcount", NewBuiltin("getrefcount", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("sys.getrefcount() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
		}
		return Int(RefCount(args[0])), nil
	}))
	vi := it.NewTuple([]Value{Int(3), Int(12), Int(0), Str("final"), Int(0)})
	m.Add(it, "version_info", vi)
	m.Set(it, "version", Str("3.12.0 (GPU Memory Playground interpreter)"))
	m.Set(it, "platform", Str("linux"))
	m.Set(it, "maxsize", Int(math.MaxInt64))
	m.Set(it, "byteorder", Str("little"))
	m.Add(it, "argv", it.NewList([]Value{Str(it.opts.Filename)}))
	out := it.newInstance(StdoutClass)
	m.Add(it, "stdout", out)
	m.Set(it, "stderr", out)
	m.Add(it, "exc_info", NewBuiltin("exc_info", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(it.handled) == 0 {
			return it.NewTuple([]Value{None, None, None}), nil
		}
		e := it.handled[len(it.handled)-1].(*Instance)
		var tb Value = None
		if e.exc.tb != nil {
			tb = e.exc.tb
		}
		return it.NewTuple([]Value{IncRef(e.cls), IncRef(e), IncRef(tb)}), nil
	}))
	m.Add(it, "exception", NewBuiltin("exception", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(it.handled) == 0 {
			return None, nil
		}
		return IncRef(it.handled[len(it.handled)-1]), nil
	}))
	m.Add(it, "getrecursionlimit", NewBuiltin("getrecursionlimit", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		return Int(it.limits.MaxDepth), nil
	}))
	m.Add(it, "setrecursionlimit", NewBuiltin("setrecursionlimit", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		return None, nil
	}))
	m.Add(it, "exit", NewBuiltin("exit", builtinExit))
	m.Add(it, "get_int_max_str_digits", NewBuiltin("get_int_max_str_digits", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		return Int(pyfmt.MaxStrDigits), nil
	}))
	return m, nil
}

func buildTime(it *Interp) (*Module, error) {
	m := it.NewModule("time")
	sec := func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		it.clockNS += 1000 // each reading advances the virtual clock by 1 µs
		return Float(float64(it.clockNS) / 1e9), nil
	}
	ns := func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		it.clockNS += 1000
		return Int(it.clockNS), nil
	}
	for _, n := range []string{"time", "perf_counter", "monotonic", "process_time"} {
		m.Add(it, n, NewBuiltin(n, sec))
	}
	for _, n := range []string{"time_ns", "perf_counter_ns", "monotonic_ns"} {
		m.Add(it, n, NewBuiltin(n, ns))
	}
	m.Add(it, "sleep", NewBuiltin("sleep", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("sleep() takes exactly one argument")
		}
		f, err := it.floatArg("sleep", args[0])
		if err != nil {
			return nil, err
		}
		if f < 0 {
			return nil, newValueError("sleep length must be non-negative")
		}
		it.clockNS += int64(f * float64(time.Second))
		return None, nil
	}))
	return m, nil
}

// rand64 is xorshift64*: the random module's deterministic generator.
func (it *Interp) rand64() uint64 {
	x := it.rng
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	it.rng = x
	return x * 2685821657736338717
}

func (it *Interp) randFloat() float64 { return float64(it.rand64()>>11) / (1 << 53) }

func buildRandom(it *Interp) (*Module, error) {
	m := it.NewModule("random")
	m.Add(it, "seed", NewBuiltin("seed", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		var s int64
		if len(args) > 0 {
			if n, ok := smallInt(args[0]); ok {
				s = n
			} else {
				h, _ := it.hash(args[0])
				s = h
			}
		}
		it.rng = uint64(s)*0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D
		return None, nil
	}))
	m.Add(it, "random", NewBuiltin("random", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		return Float(it.randFloat()), nil
	}))
	m.Add(it, "uniform", NewBuiltin("uniform", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		var a, b float64
		if err := UnpackArgs("uniform", args, kw, "a", &a, "b", &b); err != nil {
			return nil, err
		}
		return Float(a + (b-a)*it.randFloat()), nil
	}))
	m.Add(it, "gauss", NewBuiltin("gauss", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		mu, sigma := 0.0, 1.0
		if err := UnpackArgs("gauss", args, kw, "mu?", &mu, "sigma?", &sigma); err != nil {
			return nil, err
		}
		u1, u2 := it.randFloat(), it.randFloat()
		z := math.Sqrt(-2*math.Log(1-u1)) * math.Cos(2*math.Pi*u2)
		return Float(mu + sigma*z), nil
	}))
	m.Add(it, "randint", NewBuiltin("randint", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		var a, b int64
		if err := UnpackArgs("randint", args, kw, "a", &a, "b", &b); err != nil {
			return nil, err
		}
		if b < a {
			return nil, newValueError("empty range for randrange() (" + strconv.FormatInt(a, 10) + ", " + strconv.FormatInt(b+1, 10) + ", " + strconv.FormatInt(b+1-a, 10) + ")")
		}
		return Int(a + int64(it.rand64()%uint64(b-a+1))), nil
	}))
	m.Add(it, "randrange", NewBuiltin("randrange", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		var a, b int64
		var bv Value = None
		if err := UnpackArgs("randrange", args, kw, "start", &a, "stop?", &bv); err != nil {
			return nil, err
		}
		if bv == None {
			a, b = 0, a
		} else {
			b, _ = smallInt(bv)
		}
		if b <= a {
			return nil, newValueError("empty range for randrange()")
		}
		return Int(a + int64(it.rand64()%uint64(b-a))), nil
	}))
	m.Add(it, "choice", NewBuiltin("choice", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("choice() takes exactly one argument")
		}
		n, err := it.Len(args[0])
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, NewException(IndexError, "Cannot choose from an empty sequence")
		}
		return it.GetItem(args[0], Int(int64(it.rand64()%uint64(n))))
	}))
	m.Add(it, "shuffle", NewBuiltin("shuffle", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		l, ok := args[0].(*List)
		if !ok {
			return nil, newTypeError("shuffle() argument must be a list")
		}
		for i := len(l.elems) - 1; i > 0; i-- {
			j := int(it.rand64() % uint64(i+1))
			l.elems[i], l.elems[j] = l.elems[j], l.elems[i]
		}
		return None, nil
	}))
	return m, nil
}

func buildCollections(it *Interp) (*Module, error) {
	m := it.NewModule("collections")
	m.Set(it, "OrderedDict", OrderedDictClass)
	m.Set(it, "defaultdict", DefaultDictClass)
	return m, nil
}

func buildFunctools(it *Interp) (*Module, error) {
	m := it.NewModule("functools")
	m.Set(it, "partial", PartialClass)
	m.Add(it, "reduce", NewBuiltin("reduce", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) < 2 || len(args) > 3 {
			return nil, newTypeError("reduce expected at least 2 arguments, got " + strconv.Itoa(len(args)))
		}
		vs, err := it.iterToSlice(args[1])
		if err != nil {
			return nil, err
		}
		defer it.decRefAll(vs)
		var acc Value
		if len(args) == 3 {
			acc = IncRef(args[2])
		} else {
			if len(vs) == 0 {
				return nil, newTypeError("reduce() of empty iterable with no initial value")
			}
			acc = IncRef(vs[0])
			vs = vs[1:]
		}
		for _, v := range vs {
			r, err := it.Call(args[0], []Value{acc, v}, nil)
			it.DecRef(acc)
			if err != nil {
				return nil, err
			}
			acc = r
		}
		return acc, nil
	}))
	ident := func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		return NewBuiltin("decorator", func(it *Interp, a []Value, k []Kwarg) (Value, error) {
			if len(a) != 1 {
				return nil, newTypeError("decorator takes one argument")
			}
			return IncRef(a[0]), nil
		}), nil
	}
	m.Add(it, "wraps", NewBuiltin("wraps", ident))
	m.Add(it, "lru_cache", NewBuiltin("lru_cache", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) == 1 {
			if _, ok := args[0].(*Function); ok {
				return IncRef(args[0]), nil
			}
		}
		return ident(it, args, kw)
	}))
	return m, nil
}

func buildItertools(it *Interp) (*Module, error) {
	m := it.NewModule("itertools")
	m.Add(it, "count", NewBuiltin("count", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		var start Value = Int(0)
		var step Value = Int(1)
		if err := UnpackArgs("count", args, kw, "start?", &start, "step?", &step); err != nil {
			return nil, err
		}
		cur := start
		x := it.NewIterator(func(it *Interp) (Value, bool, error) {
			v := cur
			n, err := it.binaryOp(OpAdd, cur, step)
			if err != nil {
				return nil, false, err
			}
			cur = n
			return v, true, nil
		}, nil)
		return x, nil
	}))
	m.Add(it, "repeat", NewBuiltin("repeat", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		var obj Value
		times := -1
		if err := UnpackArgs("repeat", args, kw, "object", &obj, "times?", &times); err != nil {
			return nil, err
		}
		x := it.NewIterator(func(it *Interp) (Value, bool, error) {
			if times == 0 {
				return nil, false, nil
			}
			if times > 0 {
				times--
			}
			return IncRef(obj), true, nil
		}, nil)
		x.src = IncRef(obj)
		it.newGC(x, true)
		return x, nil
	}))
	m.Add(it, "chain", NewBuiltin("chain", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		srcs := make([]Value, len(args))
		for i, a := range args {
			srcs[i] = IncRef(a)
		}
		var cur Value
		i := 0
		x := it.NewIterator(func(it *Interp) (Value, bool, error) {
			for {
				if cur == nil {
					if i >= len(srcs) {
						return nil, false, nil
					}
					c, err := it.Iter(srcs[i])
					i++
					if err != nil {
						return nil, false, err
					}
					cur = c
				}
				v, ok, err := it.Next(cur)
				if err != nil {
					return nil, false, err
				}
				if ok {
					return v, true, nil
				}
				it.DecRef(cur)
				cur = nil
			}
		}, func(it *Interp) {
			if cur != nil {
				it.DecRef(cur)
			}
			it.decRefAll(srcs)
		})
		it.newGC(x, true)
		return x, nil
	}))
	m.Add(it, "islice", NewBuiltin("islice", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) < 2 {
			return nil, newTypeError("islice expected at least 2 arguments")
		}
		inner, err := it.Iter(args[0])
		if err != nil {
			return nil, err
		}
		start, stop, step := 0, -1, 1
		if len(args) == 2 {
			if args[1] != None {
				stop, _ = it.index(args[1])
			}
		} else {
			if args[1] != None {
				start, _ = it.index(args[1])
			}
			if args[2] != None {
				stop, _ = it.index(args[2])
			}
			if len(args) > 3 && args[3] != None {
				step, _ = it.index(args[3])
			}
		}
		pos := 0
		next := start
		x := it.NewIterator(func(it *Interp) (Value, bool, error) {
			for {
				if stop >= 0 && next >= stop {
					return nil, false, nil
				}
				v, ok, err := it.Next(inner)
				if err != nil || !ok {
					return nil, false, err
				}
				p := pos
				pos++
				if p == next {
					next += step
					return v, true, nil
				}
				it.DecRef(v)
			}
		}, nil)
		x.src = inner
		it.newGC(x, true)
		return x, nil
	}))
	m.Add(it, "product", NewBuiltin("product", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		var pools [][]Value
		for _, a := range args {
			vs, err := it.iterToSlice(a)
			if err != nil {
				return nil, err
			}
			pools = append(pools, vs)
		}
		result := [][]Value{{}}
		for _, p := range pools {
			var nr [][]Value
			for _, r := range result {
				for _, v := range p {
					nr = append(nr, append(append([]Value(nil), r...), v))
				}
			}
			result = nr
			if len(result) > it.limits.MaxCollection {
				return nil, it.checkSize(-1)
			}
		}
		var tuples []Value
		for _, r := range result {
			for _, v := range r {
				IncRef(v)
			}
			tuples = append(tuples, it.NewTuple(r))
		}
		for _, p := range pools {
			it.decRefAll(p)
		}
		l := it.NewList(tuples)
		defer it.DecRef(l)
		return it.Iter(l)
	}))
	return m, nil
}

func buildTyping(it *Interp) (*Module, error) {
	m := it.NewModule("typing")
	for _, n := range []string{"Any", "List", "Dict", "Tuple", "Set", "Optional", "Union", "Callable",
		"Iterable", "Iterator", "Sequence", "Mapping", "Type", "TypeVar", "Generic", "NamedTuple",
		"Literal", "Final", "ClassVar", "FrozenSet", "DefaultDict", "Protocol", "cast", "overload", "TYPE_CHECKING"} {
		switch n {
		case "TYPE_CHECKING":
			m.Set(it, n, False)
		case "cast":
			m.Add(it, n, NewBuiltin("cast", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
				if len(args) != 2 {
					return nil, newTypeError("cast() takes 2 arguments")
				}
				return IncRef(args[1]), nil
			}))
		case "TypeVar":
			m.Add(it, n, NewBuiltin("TypeVar", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
				return IncRef(ObjectClass), nil
			}))
		case "overload":
			m.Add(it, n, NewBuiltin("overload", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
				return IncRef(args[0]), nil
			}))
		default:
			m.Set(it, n, ObjectClass)
		}
	}
	return m, nil
}

func buildCopy(it *Interp) (*Module, error) {
	m := it.NewModule("copy")
	m.Add(it, "copy", NewBuiltin("copy", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("copy() takes exactly one argument")
		}
		return it.copyValue(args[0], false, map[Object]Value{})
	}))
	m.Add(it, "deepcopy", NewBuiltin("deepcopy", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) < 1 {
			return nil, newTypeError("deepcopy() missing argument")
		}
		memo := map[Object]Value{}
		return it.copyValue(args[0], true, memo)
	}))
	return m, nil
}

func (it *Interp) copyValue(v Value, deep bool, memo map[Object]Value) (Value, error) {
	if o, ok := v.(Object); ok {
		if c, ok := memo[o]; ok {
			return IncRef(c), nil
		}
	}
	elem := func(e Value) (Value, error) {
		if deep {
			return it.copyValue(e, true, memo)
		}
		return IncRef(e), nil
	}
	switch x := v.(type) {
	case *List:
		l := it.NewList(nil)
		memo[x] = l
		for _, e := range x.elems {
			c, err := elem(e)
			if err != nil {
				it.DecRef(l)
				return nil, err
			}
			l.elems = append(l.elems, c)
		}
		return l, nil
	case *Dict:
		d := it.NewDict()
		d.cls = x.cls
		if x.factory != nil {
			d.factory = IncRef(x.factory)
		}
		memo[x] = d
		for _, e := range x.entries {
			if e.key == nil {
				continue
			}
			c, err := elem(e.value)
			if err != nil {
				it.DecRef(d)
				return nil, err
			}
			d.SetItem(it, e.key, c)
			it.DecRef(c)
		}
		return d, nil
	case *Tuple:
		if !deep {
			return IncRef(x), nil
		}
		vs := make([]Value, 0, len(x.elems))
		for _, e := range x.elems {
			c, err := elem(e)
			if err != nil {
				it.decRefAll(vs)
				return nil, err
			}
			vs = append(vs, c)
		}
		return it.NewTuple(vs), nil
	case *Set:
		s, err := it.setFrom(x.elemsList(), x.frozen)
		return s, err
	case *Instance:
		name := "__copy__"
		if deep {
			name = "__deepcopy__"
		}
		if f := x.cls.Lookup(name); f != nil {
			if deep {
				return it.callMethodValue(f, x, []Value{None}, nil)
			}
			return it.callMethodValue(f, x, nil, nil)
		}
		n := it.newInstance(x.cls)
		memo[x] = n
		if x.dict != nil {
			for _, e := range x.dict.entries {
				if e.key == nil {
					continue
				}
				c, err := elem(e.value)
				if err != nil {
					it.DecRef(n)
					return nil, err
				}
				n.attrDict().SetItem(it, e.key, c)
				it.DecRef(c)
			}
		}
		return n, nil
	}
	return IncRef(v), nil
}
