# nn.RNN, nn.LSTM, nn.GRU (batch_first, num_layers, bidirectional, dropout, hidden states given or not,
# unbatched input) and the cells: PyTorch's weights under manual_seed, outputs, gradients, nodes, printed forms
import torch
import torch.nn as nn

torch.manual_seed(0)
rnn = nn.RNN(3, 4, batch_first=True)
print(rnn, [(n, tuple(p.shape)) for n, p in rnn.named_parameters()])
print(rnn.weight_ih_l0, rnn.bias_hh_l0)
x = torch.randn(2, 5, 3, requires_grad=True)
out, h = rnn(x)
print(out, h, out.grad_fn.name(), h.grad_fn.name())
(out.sum() + h.pow(2).sum()).backward()
print(x.grad[1], rnn.weight_hh_l0.grad, rnn.bias_ih_l0.grad)

lstm = nn.LSTM(input_size=3, hidden_size=4, num_layers=2)
print(lstm, [n for n, _ in lstm.named_parameters()])
seq = torch.randn(6, 2, 3)
h0, c0 = torch.randn(2, 2, 4, requires_grad=True), torch.randn(2, 2, 4, requires_grad=True)
out, (hn, cn) = lstm(seq, (h0, c0))
print(out[-1], hn, cn, hn.grad_fn.name())
((out * torch.linspace(-1, 1, 48).reshape(6, 2, 4)).sum() + (hn * cn).sum()).backward()
print(lstm.weight_ih_l0.grad[:4], lstm.bias_hh_l1.grad, h0.grad[1], c0.grad[0])
bf = nn.LSTM(3, 2, batch_first=True, bidirectional=True)
o, (hb, cb) = bf(x)
(o[:, 1:].sum() + cb.sum()).backward()
print(o.grad_fn.name(), o[1], x.grad[0], bf.weight_hh_l0_reverse.grad)

gru = nn.GRU(3, 5, num_layers=2, bidirectional=True, batch_first=True)
print(gru, [tuple(p.shape) for p in gru.parameters()][4:8])
y, hg = gru(x)
print(y.shape, hg.shape, y[0, -1], hg[:, 1], y.grad_fn.name())
y.pow(2).mean().backward()
print(gru.weight_hh_l1_reverse.grad[0], gru.bias_ih_l0.grad)
relu_rnn = nn.RNN(3, 2, 1, "relu", bias=False)
print(relu_rnn, relu_rnn.nonlinearity, relu_rnn(torch.randn(4, 3)))
bi = nn.LSTM(3, 2, bidirectional=True)
o, (hb, cb) = bi(torch.randn(4, 1, 3))
print(o, hb, o.grad_fn.name())
drop = nn.LSTM(3, 2, num_layers=2, dropout=0.5)
print(drop, drop(torch.randn(3, 2, 3))[0])
drop.eval()
print(drop(torch.ones(3, 2, 3))[1][0])
cell = nn.LSTMCell(3, 4)
hx, cx = torch.zeros(2, 4), torch.zeros(2, 4)
for _ in range(3):
    hx, cx = cell(torch.randn(2, 3), (hx, cx))
print(cell, hx, cx, hx.grad_fn.name())
gcell = nn.GRUCell(3, 2)
print(gcell, gcell(torch.randn(3)), gcell(torch.randn(1, 3), torch.ones(1, 2)).grad_fn.name())
rcell = nn.RNNCell(3, 2, nonlinearity="relu")
print(rcell, rcell(torch.randn(2, 3)).grad_fn.name())
dbl = nn.LSTM(2, 3).double()
print(dbl(torch.randn(4, 2, dtype=torch.float64))[0].dtype)
for bad in (lambda: rnn(torch.randn(2, 5, 4)), lambda: lstm(seq, (torch.zeros(1, 2, 4), c0)),
            lambda: gru(torch.randn(2, 2, 2, 3)), lambda: rnn(torch.randn(1, 2, 3).double())):
    try:
        bad()
    except RuntimeError as err:
        print("RuntimeError", err)
    except ValueError as err:
        print("ValueError", err)
nn.GRU(3, 4, dropout=1.5)
