package sim

import "github.com/gpumem/playground/sim/torch"

// ValueBackend is a Backend that also computes tensor values (a real GPU):
// Executor is the PyTorch model's executor for the run (torch.Executor),
// called on the goroutine that called Run. A plain Backend (or none) runs
// the model without values, as the simulator does.
type ValueBackend interface {
	Backend
	Executor() torch.Executor
}

// executorOf returns the request's executor, nil when it has none.
func executorOf(b Backend) torch.Executor {
	if vb, ok := b.(ValueBackend); ok {
		return vb.Executor()
	}
	return nil
}
