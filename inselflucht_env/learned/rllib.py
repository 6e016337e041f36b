"""RLlib glue (new API stack): our network as an action-masking RLModule, env, callback.

Needs the ``rllib`` extra (``ray[rllib]``). Everything an RLlib worker has to import lives
here, in the installed package, not in the repository's ``train/`` folder: on a cluster
every node imports it by name.

* ``InselfluchtRLModule``: a ``TorchRLModule`` whose whole network *is*
  ``network.build_policy(spec)``, the ``MaskableActorCriticPolicy`` that ``train.train``,
  the checkpoint format and every learned agent use. RLlib trains exactly our architecture,
  and ``export(module, folder)`` is ``save_checkpoint(module.network, ...)``: the result
  plays with ``train.evaluate --agent FOLDER`` with no RLlib installed. It reads the Dict
  observation ``{"observations", "action_mask"}`` (``dict_observation``) and sets the
  logits of illegal actions to ``FLOAT_MIN``, so it never samples one.
* ``make_env(env_config)``: the PettingZoo AEC env as an RLlib ``MultiAgentEnv``
  (``PettingZooEnv`` over ``PettingZooDictObservation``); register it with
  ``ray.tune.registry.register_env(ENV_NAME, make_env)``.
* ``shared_policy``: the policy mapping that gives every figure the one policy
  ``POLICY_ID`` (observations are from the acting figure's seat, as for ``train.train``).
* ``OutcomeCallback``: logs win rate, loss causes and the count of illegal actions
  (``inselflucht/illegal``; it stays 0 when masking works) into RLlib's metrics.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.utils.torch_utils import FLOAT_MIN

from inselflucht_env.envs.dict_observation import ACTION_MASK, OBSERVATIONS
from inselflucht_env.games.inselflucht.rules.engine import OUTCOMES
from inselflucht_env.learned.checkpoint import save_checkpoint
from inselflucht_env.learned.network import NetworkSpec, build_policy, policy_value

ENV_NAME = "inselflucht_pz"
POLICY_ID = "shared"


class InselfluchtRLModule(TorchRLModule, ValueFunctionAPI):
    """PPO's RLModule: our policy-value network over the Dict observation, masked.

    ``model_config = {"network": NetworkSpec(...).to_json()}``.
    """

    def setup(self) -> None:
        self.spec = NetworkSpec.from_json(self.model_config["network"])
        size = self.observation_space[OBSERVATIONS].shape[0]
        if size != self.spec.observation_size:
            raise ValueError(
                f"the env observes {size} numbers, the network reads {self.spec.observation_size}"
            )
        self.network = build_policy(self.spec)

    def _logits_values(self, batch: dict[str, Any]) -> tuple[torch.Tensor, torch.Tensor]:
        obs = batch[Columns.OBS]
        logits, values = policy_value(self.network, obs[OBSERVATIONS].float())
        legal = obs[ACTION_MASK] > 0
        return logits.masked_fill(~legal, FLOAT_MIN), values

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        logits, _ = self._logits_values(batch)
        return {Columns.ACTION_DIST_INPUTS: logits}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        # The value comes from the same pass; PPO's learner hands EMBEDDINGS back to
        # compute_values, which then needs no second forward pass.
        logits, values = self._logits_values(batch)
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: values}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        if embeddings is not None:
            return embeddings
        return self._logits_values(batch)[1]


def export(module: InselfluchtRLModule, folder: str | Path, metadata: dict[str, Any]) -> Path:
    """Write the module's network in the safe checkpoint format (no pickle, no RLlib)."""
    return save_checkpoint(module.network, folder, module.spec, metadata)


def make_env(env_config: dict[str, Any] | None = None) -> Any:
    """RLlib's ``MultiAgentEnv`` view of ``pettingzoo.env(**env_config)`` with RLlib's
    observation keys (``PettingZooEnv`` alone fails with ``KeyError: 'observations'``)."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    from inselflucht_env.envs import pettingzoo as iz
    from inselflucht_env.envs.dict_observation import PettingZooDictObservation

    return PettingZooEnv(PettingZooDictObservation(iz.env(**dict(env_config or {}))))


def shared_policy(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """Every figure plays the one shared policy."""
    return POLICY_ID


class OutcomeCallback(RLlibCallback):
    """Game outcomes as RLlib metrics: ``inselflucht/win_rate``, ``inselflucht/loss_L1`` ..
    (means over the last 200 games) and ``inselflucht/illegal`` (games ended by an illegal
    action, summed per iteration: 0 when masking works)."""

    def on_episode_end(self, *, episode: Any, metrics_logger: Any = None, **kwargs: Any) -> None:
        infos = episode.get_infos(-1)
        outcome = next((i["outcome"] for i in infos.values() if "outcome" in i), None)
        if metrics_logger is None or outcome is None:
            return
        metrics_logger.log_value(
            "inselflucht/win_rate", float(outcome == "win"), reduce="mean", window=200
        )
        for cause in (o for o in OUTCOMES if o.startswith("L")):
            metrics_logger.log_value(
                f"inselflucht/loss_{cause}", float(outcome == cause), reduce="mean", window=200
            )
        metrics_logger.log_value("inselflucht/illegal", int(outcome == "illegal"), reduce="sum")


__all__ = [
    "ENV_NAME",
    "InselfluchtRLModule",
    "OutcomeCallback",
    "POLICY_ID",
    "export",
    "make_env",
    "shared_policy",
]
