package gpuexec

import "math/rand/v2"

// randperm writes a permutation of 0..n-1 into out (torch.randperm), drawn
// on the host from the executor's generator: the seed of the last
// manual_seed and the generator's counter, which advances by n as for the
// other random ops. Like them it is not PyTorch's Philox stream, so the
// order differs from PyTorch's for a seed; it is a permutation all the
// same (DataLoader(shuffle=True) and random_split see every index once).
func (e *Executor) randperm(out operand) error {
	n := numel(out.shape)
	r := rand.New(rand.NewPCG(e.seed, e.counter))
	e.counter += uint64(n)
	vals := make([]float64, n)
	for i, j := range r.Perm(int(n)) {
		vals[i] = float64(j)
	}
	return e.values(out, vals)
}
