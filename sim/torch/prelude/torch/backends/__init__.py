# torch.backends: the flags scripts set (torch.backends.cudnn.benchmark,
# allow_tf32, ...). Memory does not depend on them; values computed on the
# GPU backend are always full float32 (what allow_tf32 = False asks for).
