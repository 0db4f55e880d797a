# nn.parallel.DistributedDataParallel (torch/nn/parallel/distributed.py of
# PyTorch 2.11): it needs a process group (torch.distributed, several
# processes), which the playground does not simulate. Without one PyTorch
# raises _get_default_group's ValueError; so does this.
from torch.nn.modules.module import Module

__all__ = ["DistributedDataParallel"]


class DistributedDataParallel(Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0, broadcast_buffers=True,
                 init_sync=True, process_group=None, bucket_cap_mb=None, find_unused_parameters=False,
                 check_reduction=False, gradient_as_bucket_view=False, static_graph=False,
                 delay_all_reduce_named_params=None, param_to_hook_all_reduce=None,
                 mixed_precision=None, device_mesh=None, skip_all_reduce_unused_params=False):
        super().__init__()
        if process_group is None and device_mesh is None:
            raise ValueError(
                "Default process group has not been initialized, please make sure to call "
                "init_process_group.")
        raise NotImplementedError(
            "DistributedDataParallel is not simulated: the playground runs one process on one GPU "
            "(use the module directly, or nn.DataParallel)")
