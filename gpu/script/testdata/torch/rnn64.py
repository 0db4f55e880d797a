# float64 cuDNN RNNs (forward and backward computed in float64; the inputs
# are float32 tanh values, equal to PyTorch's only to the ulp, so a case
# whose printed gradients reach thousands (a 2-layer relu RNN: 1e-7
# relative) is left to gpuexec's TestRNNFloat64AgainstReference), and a
# training LSTM with dropout between layers: its mask is not PyTorch's
# (the GPU backend draws its own), so only what the mask does not touch is
# printed: layer 0's final states.
import torch
import torch.nn as nn


def t(n, shape, a=0.37, b=1.1, s=1.0):
    return (torch.tanh(torch.arange(n, dtype=torch.float32, device="cuda") * a - b) * s).view(shape)


def init(m):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(t(p.numel(), p.shape, 0.23 + 0.05 * i, 1.3 - 0.2 * i, 0.6))
    return m


def run(name, m, x, h0=None):
    m = init(m.cuda()).double()
    x = x.double().clone().requires_grad_()
    if h0 is not None:
        h0 = tuple(h.double() for h in h0) if isinstance(h0, tuple) else h0.double()
    y, h = m(x) if h0 is None else m(x, h0)
    print(name, "output", y)
    if isinstance(h, tuple):
        print(name, "h_n", h[0])
        print(name, "c_n", h[1])
        loss = (y * t(y.numel(), y.shape, 0.11, 2).double()).sum() + h[0].sum() + (h[1] * h[1]).sum()
    else:
        print(name, "h_n", h)
        loss = (y * t(y.numel(), y.shape, 0.11, 2).double()).sum() + (h * h).sum()
    loss.backward()
    print(name, "loss", loss.item())
    print(name, "x.grad", x.grad)
    for pn, p in m.named_parameters():
        print(name, pn, p.grad)


x = t(4 * 2 * 3, (4, 2, 3), 0.41, 4)
run("lstm2-bi-f64", nn.LSTM(3, 4, num_layers=2, bidirectional=True), x)
run("lstm-h0-f64", nn.LSTM(3, 4), x, (t(8, (1, 2, 4), 0.5, 1), t(8, (1, 2, 4), 0.3, 0.5)))
run("gru-h0-f64", nn.GRU(3, 4, batch_first=True), x.transpose(0, 1).contiguous(), t(8, (1, 2, 4), 0.5, 1))
run("gru2-bi-f64", nn.GRU(3, 4, num_layers=2, bidirectional=True), x)
run("rnn-tanh-h0-f64", nn.RNN(3, 5), x, t(10, (1, 2, 5), 0.3, 0.5))

torch.backends.cudnn.allow_tf32 = False
m = init(nn.LSTM(3, 4, num_layers=2, dropout=0.5).cuda())
m.train()
y, (h, c) = m(x)
print("dropout layer0 h_n", h[0])
print("dropout layer0 c_n", c[0])
print("dropout shapes", tuple(y.shape), tuple(h.shape))
