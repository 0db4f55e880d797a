package torch

import "sync/atomic"

// Random ops beyond the factories (exec.go's uniform/normal/randint/
// randperm): their kinds, and the generator operand every random kind may
// carry. A random op's Ints[0], when present, names the torch.Generator
// it draws from (0: the default generator of the output's device); the
// executor advances that generator even when it cannot compute the values,
// so later draws stay PyTorch's.
const (
	// ExecBernoulli is bernoulli_: Out[0] = self, Scalars[0] = p (a number),
	// or In[0] = the probabilities (broadcast to self) when there is no
	// scalar; Ints[0] generator.
	ExecBernoulli ExecKind = "bernoulli"
	// ExecRandomFull is random_() without bounds: Out[0] = self (integers
	// over [0, 2^63) for int64, [0, 2^digits] for floats); Ints[0]
	// generator.
	ExecRandomFull ExecKind = "random_full"
	// ExecMultinomial is torch.multinomial: Out[0] = int64 samples
	// [n_sample] or [n_dist, n_sample], In[0] = probabilities (1-d or 2-d);
	// Ints = [generator, n_sample, replacement (0/1)].
	ExecMultinomial ExecKind = "multinomial"
	// ExecGeneratorSeed creates or reseeds a torch.Generator: Ints = [id,
	// seed, device (0 CPU, 1 CUDA)]. No operands.
	ExecGeneratorSeed ExecKind = "generator_seed"
)

// generatorIDs numbers the generators of every run (ids only need to be
// unique within an executor's run).
var generatorIDs atomic.Int64

// Generator is a torch.Generator of the run: its id (never 0, the default
// generators) and its device.
type Generator struct {
	ID   int64
	CUDA bool
}

// NewGenerator makes a torch.Generator with PyTorch's default seed
// (67280421310721) on the CPU or CUDA device.
func (rt *Runtime) NewGenerator(cuda bool) *Generator {
	g := &Generator{ID: generatorIDs.Add(1), CUDA: cuda}
	rt.SeedGenerator(g, 67280421310721)
	return g
}

// SeedGenerator is Generator.manual_seed: the executor's generator g
// restarts from seed (nothing happens in the simulator).
func (rt *Runtime) SeedGenerator(g *Generator, seed int64) {
	if rt.exec != nil && g != nil {
		dev := int64(0)
		if g.CUDA {
			dev = 1
		}
		rt.compute(ExecGeneratorSeed, nil, nil, nil, []int64{g.ID, seed, dev})
	}
}

// genInts are a random op's Ints: the generator's id first.
func genInts(g *Generator, more ...int64) []int64 {
	id := int64(0)
	if g != nil {
		id = g.ID
	}
	return append([]int64{id}, more...)
}

// InitGen is Init for a random factory drawing from generator g (nil: the
// default generator).
func (rt *Runtime) InitGen(t *Tensor, g *Generator, kind ExecKind, scalars ...float64) {
	if rt.exec != nil && t != nil {
		if g == nil {
			rt.compute1(kind, t, nil, scalars...)
			return
		}
		rt.compute(kind, []*Tensor{t}, nil, scalars, genInts(g))
	}
}

// InplaceRandom is an in-place random op (bernoulli_, random_, normal_,
// uniform_ with a generator): as InplaceUnaryInit, the values drawn by
// kind from generator g with probabilities p (bernoulli_ with a tensor) or
// the scalars.
func (rt *Runtime) InplaceRandom(op string, t *Tensor, g *Generator, kind ExecKind, p *Tensor, scalars ...float64) (*Tensor, error) {
	if err := rt.inplace(t); err != nil {
		return nil, err
	}
	if rt.exec != nil {
		var ins []*Tensor
		if p != nil {
			ins = []*Tensor{p}
		}
		rt.compute(kind, []*Tensor{t}, ins, scalars, genInts(g))
	}
	if t.RequiresGrad() && rt.gradMode {
		name := map[string]string{"normal": "NormalBackward0", "uniform": "UniformBackward0"}[op]
		if name == "" {
			name = "ZeroBackward0"
		}
		n := rt.record(name, t)
		n.rebase(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			r, err := rt.ZerosLike(g[0])
			return []*Tensor{r}, err
		}, t)
	}
	return t.Retain(), nil
}

// Bernoulli is torch.bernoulli(input) (probabilities input: out =
// empty_like(input) contiguous, then out.bernoulli_(input)) and
// torch.bernoulli(input, p) (out.bernoulli_(p)).
func (rt *Runtime) Bernoulli(x *Tensor, p *float64, g *Generator) (*Tensor, error) {
	out, err := rt.empty("bernoulli", x.shape, nil, x.dtype, x.device)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		if p != nil {
			rt.compute(ExecBernoulli, []*Tensor{out}, nil, []float64{*p}, genInts(g))
		} else {
			rt.compute(ExecBernoulli, []*Tensor{out}, []*Tensor{x}, nil, genInts(g))
		}
	}
	return out, nil
}

// Multinomial is torch.multinomial(input, n, replacement): int64 samples
// [n] (1-d input) or [rows, n]. The CUDA path with replacement works on
// three input-sized temporaries (the copied, renormalised and prefix-summed
// distributions); without replacement PyTorch draws q = exponential_ into
// an input-sized temporary and takes argmax/topk of input / q.
func (rt *Runtime) Multinomial(x *Tensor, n int64, replacement bool, g *Generator) (*Tensor, error) {
	if len(x.shape) != 1 && len(x.shape) != 2 {
		return nil, Errorf(RuntimeError, "prob_dist must be 1 or 2 dim")
	}
	if !x.dtype.IsFloating() {
		return nil, Errorf(RuntimeError, "multinomial only supports floating-point dtypes for input, got: %s", x.dtype.Name())
	}
	cats := x.shape[len(x.shape)-1]
	if n <= 0 {
		return nil, Errorf(RuntimeError, "cannot sample n_sample <= 0 samples")
	}
	if !replacement && n > cats {
		return nil, Errorf(RuntimeError, "cannot sample n_sample > prob_dist.size(-1) samples without replacement")
	}
	shape := []int64{n}
	if len(x.shape) == 2 {
		shape = []int64{x.shape[0], n}
	}
	out, err := rt.empty("multinomial", shape, nil, Int64, x.device)
	if err != nil {
		return nil, err
	}
	temps := 0
	switch {
	case !replacement || n == 1:
		temps = 1 // q = empty_like(self).exponential_()
	case x.device.IsCUDA():
		temps = 3 // origDist, normDist, prefixSum
	}
	var held []*Tensor
	for range temps {
		t, err := rt.empty("multinomial", x.shape, nil, x.dtype, x.device)
		if err != nil {
			for _, h := range held {
				h.Release()
			}
			out.Release()
			return nil, err
		}
		held = append(held, t)
	}
	if rt.exec != nil {
		repl := int64(0)
		if replacement {
			repl = 1
		}
		rt.compute(ExecMultinomial, []*Tensor{out}, []*Tensor{x}, nil, genInts(g, n, repl))
	}
	for _, h := range held {
		h.Release()
	}
	return out, nil
}
