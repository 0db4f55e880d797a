# torch.nn.utils: gradient clipping, parameter/vector conversion (torch.nn.utils.rnn:
# pad_sequence, loaded on first access).
from torch.nn.utils.clip_grad import (
    clip_grad_norm, clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_, get_total_norm,
)
from torch.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters
