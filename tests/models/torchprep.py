"""Random-weight PyTorch networks made fit for int8 tests (gen_nets.py,
gen_real.py, tests/real-nets/check_torchvision.py).

prepare() settles BatchNorm running statistics on random data, rounds
weights to a few significant bits and variances to powers of two (so the
exporter's Conv+BatchNorm folding keeps the folded weights few-bit and the
committed files compress), and scales residual branches (see gen_nets.py,
--residual-scale: a random-weight network with BatchNorm after every conv
is chaotic; trained residual nets keep their branches small against the
identity path).
"""
import numpy as np
import torch
from torchvision.models import efficientnet, mnasnet, mobilenetv2, mobilenetv3, regnet, resnet


def few_bits(tensor, bits=4):
    """Round each element to `bits` significant bits relative to the tensor's
    largest magnitude (one power-of-two step per tensor)."""
    m = tensor.abs().max().item()
    if m == 0:
        return tensor
    step = 2.0 ** (np.floor(np.log2(m)) + 1 - bits)
    return torch.round(tensor / step) * step


def power_of_two_var(var, eps):
    """A running variance near `var` for which sqrt(var + eps) is a power of
    two in float32, so that the exporter's Conv+BatchNorm folding
    (w * gamma / sqrt(var + eps)) keeps the few-bit weights few-bit."""
    std = torch.sqrt(var.clamp(min=1e-6))
    p2 = torch.pow(2.0, torch.round(torch.log2(std)))
    out = (p2 * p2 - eps).float()
    assert torch.equal(torch.sqrt(out + torch.tensor(eps, dtype=torch.float32)), p2.float())
    return out


def _last_bn(seq):
    """The BatchNorm of a block's last Conv2dNormActivation (or the last
    module when it is one)."""
    last = seq[-1]
    return last if isinstance(last, torch.nn.modules.batchnorm._BatchNorm) else last[1]


def residual_branch_bns(model):
    """The last BatchNorm of each residual branch (the one whose output is
    added to the block's input), for the torchvision blocks that add."""
    out = []
    for m in model.modules():
        if isinstance(m, resnet.BasicBlock):
            out.append(m.bn2)
        elif isinstance(m, resnet.Bottleneck):
            out.append(m.bn3)
        elif isinstance(m, mobilenetv2.InvertedResidual) and m.use_res_connect:
            out.append(m.conv[-1])
        elif isinstance(m, mobilenetv3.InvertedResidual) and m.use_res_connect:
            out.append(_last_bn(m.block))
        elif isinstance(m, (efficientnet.MBConv, efficientnet.FusedMBConv)) and m.use_res_connect:
            out.append(_last_bn(m.block))
        elif isinstance(m, mnasnet._InvertedResidual) and m.apply_residual:
            out.append(m.layers[-1])
        elif isinstance(m, regnet.ResBottleneckBlock):
            out.append(_last_bn(m.f.c))
    return out


def prepare(model, input_shape, seed, residual_scale=1.0, bits=4, batches=4):
    """Settle BatchNorm running statistics on `batches` random batches of
    `input_shape` (train mode, no weight updates), round weights and means
    to few bits and variances to powers of two (bits=None: keep the
    weights as drawn), then scale residual branches by residual_scale.
    Returns the model in eval mode."""
    g = torch.Generator().manual_seed(seed)
    bns = [m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    with torch.no_grad():
        if bits:
            for p in model.parameters():
                p.copy_(few_bits(p, bits))
        model.train()
        for m in bns:
            m.momentum = None  # cumulative average over the batches below
            m.reset_running_stats()
        for _ in range(batches):
            model(torch.rand(input_shape, generator=g) * 2 - 1)
        for m in bns:
            if bits:
                m.running_mean.copy_(few_bits(m.running_mean, 6))
            m.running_var.copy_(power_of_two_var(m.running_var, m.eps))
        for bn in residual_branch_bns(model):
            assert isinstance(bn, torch.nn.modules.batchnorm._BatchNorm), bn
            bn.weight.mul_(residual_scale)
            bn.bias.mul_(residual_scale)
    model.eval()
    return model



def clearest(logits, k):
    """The indices (in draw order) of the k rows of logits [N, C] whose two
    largest values are furthest apart against the row's spread.  A
    random-weight classifier has many near-ties, where any rounding flips
    the top-1 decision: samples with a clear margin make top-1 agreement
    test the arithmetic, not luck."""
    top2 = np.sort(logits, axis=1)[:, -2:]
    margin = (top2[:, 1] - top2[:, 0]) / (logits.std(axis=1) + 1e-30)
    return np.sort(np.argsort(-margin, kind="stable")[:k])
