# torch.random: the default CPU generator's functions (torch.manual_seed
# and the others are the binding's, re-exported here) and fork_rng, which
# saves the CPU and CUDA states on entry and restores them on exit.
# PyTorch's fork_rng is a generator-based context manager; the playground
# has no generators, so it is a class with the same arguments and effect.
import warnings

import torch

__all__ = ["fork_rng", "get_rng_state", "initial_seed", "manual_seed", "seed", "set_rng_state"]

manual_seed = torch.manual_seed
seed = torch.seed
initial_seed = torch.initial_seed
get_rng_state = torch.get_rng_state
set_rng_state = torch.set_rng_state

_fork_rng_warned_already = False


class fork_rng:
    def __init__(self, devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type="cuda"):
        self.devices = devices
        self.enabled = enabled
        self.device_type = torch.device(device_type).type
        # (torch.cpu is not in the playground: its device list is always
        # empty, so it is not looked up)
        self.device_mod = None if self.device_type == "cpu" else getattr(torch, self.device_type, None)
        if self.device_mod is None and self.device_type not in ("cpu", "meta"):
            raise RuntimeError(
                f"torch has no module of `{device_type}`, you should register "
                "a module by `torch._register_device_module`."
            )
        self._caller = _caller
        self._devices_kw = _devices_kw

    def __enter__(self):
        if self.device_type == "meta" or not self.enabled:
            return None
        if self.devices is None:
            num_devices = self.device_mod.device_count() if self.device_mod is not None else 0
            if num_devices > 1:
                global _fork_rng_warned_already
                if not _fork_rng_warned_already:
                    warnings.warn(
                        f"{self.device_type.upper()} reports that you have {num_devices} available devices, "
                        f"and you have used {self._caller} without explicitly specifying which devices are being used."
                    )
                    _fork_rng_warned_already = True
            self.devices = list(range(num_devices))
        else:
            self.devices = list(self.devices)
        self.cpu_rng_state = torch.get_rng_state()
        self.device_rng_states = [self.device_mod.get_rng_state(d) for d in self.devices]
        return None

    def __exit__(self, exc_type, exc, tb):
        if self.device_type == "meta" or not self.enabled:
            return False
        torch.set_rng_state(self.cpu_rng_state)
        for d, s in zip(self.devices, self.device_rng_states):
            self.device_mod.set_rng_state(s, d)
        self.cpu_rng_state = None
        self.device_rng_states = None
        return False
