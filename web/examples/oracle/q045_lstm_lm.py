import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")

# pytorch/examples word_language_model, small
torch.manual_seed(0)
ntoken, ninp, nhid, nlayers, bptt, bsz = 1000, 128, 256, 2, 35, 20

class RNNModel(nn.Module):
    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.2, batch_first=False):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=dropout, batch_first=batch_first)
        self.decoder = nn.Linear(nhid, ntoken)
        self.rnn_type, self.nhid, self.nlayers = rnn_type, nhid, nlayers

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        return decoded.view(-1, decoded.size(-1)), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.rnn_type == 'LSTM':
            return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                    weight.new_zeros(self.nlayers, bsz, self.nhid))
        return weight.new_zeros(self.nlayers, bsz, self.nhid)

def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)

source = torch.randint(0, ntoken, (4 * bptt + 1, bsz), device="cuda")
model = RNNModel('LSTM', ntoken, ninp, nhid, nlayers).cuda()
mem("model")
criterion = nn.CrossEntropyLoss()
opt = torch.optim.SGD(model.parameters(), lr=20)
model.train()
hidden = model.init_hidden(bsz)
for batch, i in enumerate(range(0, 3 * bptt, bptt)):
    data, targets = source[i:i + bptt], source[i + 1:i + 1 + bptt].reshape(-1)
    hidden = repackage_hidden(hidden)
    opt.zero_grad()
    output, hidden = model(data, hidden)
    mem(f"{batch} forward")
    loss = criterion(output, targets)
    loss.backward()
    mem(f"{batch} backward")
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    opt.step()
    mem(f"{batch} step")
model.eval()
with torch.no_grad():
    hidden = model.init_hidden(bsz)
    output, hidden = model(source[:bptt], hidden)
    loss = criterion(output, source[1:bptt + 1].reshape(-1))
mem("eval")
del model, opt, output, hidden, loss
mem("freed")
# GRU variant, batch first, one layer, hidden state from zeros
gru = RNNModel('GRU', ntoken, ninp, nhid, 1, dropout=0.0, batch_first=True).cuda()
mem("gru model")
opt = torch.optim.SGD(gru.parameters(), lr=1.0, momentum=0.9)
for step in range(2):
    data = source[:bptt].t().contiguous()
    output, h = gru(data, None)
    mem(f"gru {step} forward")
    loss = criterion(output, source[1:bptt + 1].t().reshape(-1))
    loss.backward()
    mem(f"gru {step} backward")
    opt.step()
    opt.zero_grad()
    mem(f"gru {step} step")
print(output.shape, h.shape)
