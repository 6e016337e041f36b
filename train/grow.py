"""Growing a trained network into a larger one that computes exactly what it did.

Why: whether size or more input planes help a network that has stopped improving shows best
when the larger network starts where the trained one is (Net2Net's idea, Chen et al. 2016,
with zeros instead of copies), so that anything it gains afterwards comes from training.
``train.tools.distill --init`` fits grown networks to a run's window; ``warm_start.init`` of an
expert-iteration config grows the checkpoint it names into the config's network.
"""

from __future__ import annotations

import torch
from torch import nn

from inselflucht_env.learned.network import NetworkSpec, build_policy
from train.exit_config import ConfigError


def grown(network: nn.Module, trained: NetworkSpec, spec: NetworkSpec) -> nn.Module:
    """A network of ``spec`` that computes what ``network`` (of ``trained``) does.

    Each trained tensor fills the leading block of the new one and the weights from new
    units or input planes into trained ones are zero (the new units' own weights keep their
    fresh values); a convolution beyond the trained ones starts as the identity (a Dirac
    kernel, no bias), which passes its input through unchanged because the ReLU before it
    left it >= 0. Way planes come after the trained input planes, so they too are new inputs.
    """
    widths = (spec.features_dim, *spec.net_arch)
    trained_widths = (trained.features_dim, *trained.net_arch)
    kept = ("observation_size", "features", "cnn_channels", "value")
    if (
        any(getattr(spec, k) != getattr(trained, k) for k in kept)
        or len(widths) != len(trained_widths)
        or any(n < o for n, o in zip(widths, trained_widths, strict=True))
        or spec.cnn_layers < trained.cnn_layers
        or trained.way_planes > spec.way_planes
    ):
        raise ConfigError(
            f"{trained} cannot grow into {spec}: only its features_dim and net_arch widths "
            "and its cnn_layers can grow, and way planes be added"
        )
    bigger = build_policy(spec)
    old = dict(network.named_parameters())
    with torch.no_grad():
        for name, param in bigger.named_parameters():
            if name not in old:  # a new convolution (its weight, then its bias)
                if param.dim() == 4:
                    nn.init.dirac_(param)
                else:
                    param.zero_()
                continue
            if param.dim() >= 2:  # [out, in, ...] of a layer: no weight from a new input
                param[: old[name].shape[0], old[name].shape[1] :] = 0
            param[tuple(slice(0, n) for n in old[name].shape)] = old[name]
    return bigger
