# Does an LSTM with dropout between layers (training) advance the CUDA
# generator (cuDNN's dropout state seeded from it)? Prints the CUDA generator's
# offset and a draw before and after the first and second such forward.
import torch

def offset():
    try:
        s = torch.cuda.get_rng_state()
    except Exception:
        return "n/a"
    return int.from_bytes(bytes(s[8:16].tolist()), "little")

torch.manual_seed(0)
lstm = torch.nn.LSTM(8, 16, num_layers=2, dropout=0.3).cuda()
x = torch.randn(5, 3, 8, device="cuda")
print("before", offset())
y, _ = lstm(x)
print("after 1st forward", offset())
y, _ = lstm(x)
print("after 2nd forward", offset())
print(torch.rand(4, device="cuda").tolist())
