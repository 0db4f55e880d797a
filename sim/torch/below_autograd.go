package torch

// noGrad runs fn with grad mode off: the ops a CUDA kernel composes from
// other ATen ops (median_impl's sort, roll_common's rolls, logsumexp's
// amax and sum) run below the autograd dispatch key and record no nodes;
// only the op itself does.
func (rt *Runtime) noGrad(fn func() error) error {
	prev := rt.SetGradEnabled(false)
	defer rt.SetGradEnabled(prev)
	return fn()
}
