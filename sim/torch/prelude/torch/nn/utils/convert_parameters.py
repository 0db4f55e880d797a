# torch.nn.utils.parameters_to_vector / vector_to_parameters
# (torch/nn/utils/convert_parameters.py of PyTorch 2.11): a cat of flat
# views, and parameters rebound to views of a vector through .data.
import torch

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters):
    # Flag for the device where the parameter is located
    param_device = None
    vec = []
    for param in parameters:
        # Ensure the parameters are located in the same device
        param_device = _check_param_device(param, param_device)
        vec.append(param.view(-1))
    return torch.cat(vec)


def vector_to_parameters(vec, parameters):
    # Ensure vec of type Tensor
    if not isinstance(vec, torch.Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {torch.typename(vec)}")
    # Flag for the device where the parameter is located
    param_device = None
    # Pointer for slicing the vector for each parameter
    pointer = 0
    for param in parameters:
        # Ensure the parameters are located in the same device
        param_device = _check_param_device(param, param_device)
        # The length of the parameter
        num_param = param.numel()
        # Slice the vector, reshape it, and replace the old data of the parameter
        param.data = vec[pointer:pointer + num_param].view_as(param).data
        # Increment the pointer
        pointer += num_param


def _check_param_device(param, old_param_device):
    # the device as param.get_device() gives it: its string here ("cpu" is -1)
    support_device_types = ["cuda", "privateuseone"]
    if old_param_device is None:
        old_param_device = str(param.device) if param.device.type in support_device_types else -1
    else:
        warn = False
        if param.device.type in support_device_types:  # Check if in same GPU/PrivateUse1
            warn = str(param.device) != old_param_device
        else:  # Check if in CPU
            warn = old_param_device != -1
        if warn:
            raise TypeError("Found two parameters on different devices, this is currently not supported.")
    return old_param_device
