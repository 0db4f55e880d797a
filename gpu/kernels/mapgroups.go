package kernels

// The map kernels are split into modules by op family so that a run loads
// (and the driver JIT-compiles) only the families its ops use: package gpu
// loads a value module on the first launch of one of its kernels. One
// module of all 287 map kernels took 2.3 s of cuModuleLoadData on an H200
// with an empty compute cache; a script that only fills, copies and adds
// now loads map_copy and map_arith (18 kernels) only.

// Map module names, one per family.
const (
	mapCopyModule    = "map_copy"    // same-type copies and fills (every run needs them)
	mapCastModule    = "map_cast"    // copies between types
	mapArithModule   = "map_arith"   // add, sub, mul, div, neg, affine (every training step)
	mapMathModule    = "map_math"    // elementary functions: exp, log, sqrt, pow, abs, ...
	mapActModule     = "map_act"     // activations and their backwards
	mapCompareModule = "map_compare" // comparisons, logical ops, where, masked selections
	mapOptimModule   = "map_optim"   // maximum/minimum, clamp, lerp, addcmul/addcdiv
	mapLossModule    = "map_loss"    // losses, dropout, sgn
	// mapWideModule has the arithmetic over float64, int32 and int64 and the
	// casts from or to float64 and int32: kept out of map_arith and map_cast
	// so that a float run does not load them.
	mapWideModule = "map_wide"
	// mapDivModule has the division family (mapops_div.go) for every type.
	mapDivModule = "map_div"
)

// wide reports a type that only mapWideModule computes in.
func wide(t DType) bool { return t == F64 || t == I32 }

// mapActOps are the activations (map_act).
var mapActOps = map[MapOp]bool{
	"relu": true, "relu_backward": true, "gelu": true, "gelu_tanh": true, "gelu_backward": true, "gelu_tanh_backward": true,
	"sigmoid": true, "sigmoid_backward": true, "tanh": true, "tanh_backward": true,
	"silu": true, "silu_backward": true, "leaky_relu": true, "leaky_relu_backward": true,
}

// mapArithOps are the four operations and their relatives (map_arith).
var mapArithOps = map[MapOp]bool{"add": true, "sub": true, "mul": true, "div": true, "neg": true, "affine": true}

// mapOptimOps are the optimizers' and clamp's ops (map_optim).
var mapOptimOps = map[MapOp]bool{
	"maximum": true, "minimum": true, "clamp": true, "clamp_backward": true,
	"lerp": true, "lerp_tensor": true, "addcmul": true, "addcdiv": true,
}

// mapModuleOf names the module of kernel k.
func mapModuleOf(k mapKernel) string {
	op := k.op
	switch {
	case op.Op == "fill" || op.Op == "copy" && k.in == k.out:
		return mapCopyModule
	case DivOp(op.Op):
		return mapDivModule
	case wide(k.in) || wide(k.out) || k.in == I64 && (mapArithOps[op.Op] || float64Ops[op.Op]):
		return mapWideModule
	case op.Op == "copy":
		return mapCastModule
	case mapActOps[op.Op]:
		return mapActModule
	case mapOptimOps[op.Op]:
		return mapOptimModule
	case op.Out == B8 || op.Fixed != nil:
		return mapCompareModule
	}
	for _, l := range lossMapOps {
		if l.Op == op.Op {
			return mapLossModule
		}
	}
	if mapArithOps[op.Op] {
		return mapArithModule
	}
	return mapMathModule
}

// mapModules splits the map kernels into their family modules, in the
// order of the first kernel of each.
func mapModules() []moduleSpec {
	var out []moduleSpec
	at := map[string]int{}
	for _, k := range mapKernels() {
		name := mapModuleOf(k)
		i, ok := at[name]
		if !ok {
			i = len(out)
			at[name] = i
			out = append(out, moduleSpec{name: name})
		}
		out[i].kernels = append(out[i].kernels, k)
	}
	return out
}
