package torch

// checkSameDevice is the check of PyTorch's generated operator wrappers
// (check_and_update_common_device): the tensor arguments in order, the
// first defined one sets the device, and a later one on another device
// fails naming its argument and the wrapper that checked it —
// "wrapper_<key>_<op>", the key CUDA when any argument is on a GPU (its
// dispatch key wins). Recorded on an H200: question q12.
func checkSameDevice(op string, names []string, ts ...*Tensor) error {
	key := "CPU"
	for _, t := range ts {
		if t != nil && t.device.IsCUDA() {
			key = "CUDA"
		}
	}
	var common Device
	found := false
	for i, t := range ts {
		if t == nil {
			continue
		}
		if !found {
			common, found = t.device, true
			continue
		}
		if t.device != common {
			return Errorf(RuntimeError, "Expected all tensors to be on the same device, but got %s is on %s, different from other tensors on %s (when checking argument in method wrapper_%s_%s)", names[i], t.device, common, key, op)
		}
	}
	return nil
}
