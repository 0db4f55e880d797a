# cuDNN RNNs (nn.LSTM, nn.GRU, nn.RNN tanh/relu; layers, bidirectional,
# batch_first, initial states) forward and backward with real values,
# deterministic weights, TF32 off, no dropout.
import torch
import torch.nn as nn

torch.backends.cudnn.allow_tf32 = False
torch.backends.cuda.matmul.allow_tf32 = False


def t(n, shape, a=0.37, b=1.1, s=1.0):
    return (torch.tanh(torch.arange(n, dtype=torch.float32, device="cuda") * a - b) * s).view(shape)


def init(m):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(t(p.numel(), p.shape, 0.23 + 0.05 * i, 1.3 - 0.2 * i, 0.6))
    return m


def run(name, m, x, h0=None, dtype=torch.float32):
    m = init(m.cuda()).to(dtype)
    x = x.to(dtype).clone().requires_grad_()
    out = m(x) if h0 is None else m(x, h0)
    y, h = out
    print(name, "output", y)
    if isinstance(h, tuple):
        print(name, "h_n", h[0])
        print(name, "c_n", h[1])
        loss = (y.float() * t(y.numel(), y.shape, 0.11, 2)).sum() + h[0].float().sum() + (h[1].float() ** 2).sum()
    else:
        print(name, "h_n", h)
        loss = (y.float() * t(y.numel(), y.shape, 0.11, 2)).sum() + (h.float() ** 2).sum()
    loss.backward()
    print(name, "loss", loss.item())
    print(name, "x.grad", x.grad)
    for pn, p in m.named_parameters():
        print(name, pn, p.grad)


x = t(4 * 2 * 3, (4, 2, 3), 0.41, 4)
run("lstm", nn.LSTM(3, 5), x)
run("lstm2-bi", nn.LSTM(3, 4, num_layers=2, bidirectional=True), x)
run("lstm-bf", nn.LSTM(3, 4, batch_first=True), x.transpose(0, 1).contiguous())
run("lstm-h0", nn.LSTM(3, 4), x, (t(8, (1, 2, 4), 0.5, 1), t(8, (1, 2, 4), 0.3, 0.5)))
run("lstm-nobias", nn.LSTM(3, 4, bias=False), x)
run("gru", nn.GRU(3, 5), x)
run("gru2-bi", nn.GRU(3, 4, num_layers=2, bidirectional=True), x)
run("gru-h0", nn.GRU(3, 4, batch_first=True), x.transpose(0, 1).contiguous(), t(8, (1, 2, 4), 0.5, 1))
run("rnn-tanh-h0", nn.RNN(3, 5), x, t(10, (1, 2, 5), 0.3, 0.5))
run("rnn-relu2", nn.RNN(3, 4, num_layers=2, nonlinearity="relu"), x)
run("lstm-half", nn.LSTM(3, 4), x, dtype=torch.float16)
m = init(nn.LSTM(3, 4).cuda())
with torch.no_grad():
    y, (h, c) = m(x)
print("nograd", y)
print("nograd", h, c)
