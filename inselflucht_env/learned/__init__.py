"""Learned policies: the network, the safe checkpoint format, and the agents that use them.

Needs the ``policies`` extra (torch, sb3-contrib, safetensors). Importing this package
registers the agent kinds ``checkpoint:``, ``netsearch:`` and ``netflat:`` with
``agents.make_agent``::

    from inselflucht_env.learned import load_policy
    policy = load_policy("ppo_2p_normal")        # a shipped policy by name, or a folder
    action = policy.act(env.unwrapped.game_state)
"""

from inselflucht_env.agents import register_agent_kind
from inselflucht_env.learned.agents import CheckpointAgent
from inselflucht_env.learned.checkpoint import (
    CheckpointError,
    load_network,
    read_metadata,
    save_checkpoint,
)
from inselflucht_env.learned.netflat import NetFlatAgent
from inselflucht_env.learned.netsearch import NetSearchAgent, SearchResult
from inselflucht_env.learned.network import NetworkSpec, build_policy
from inselflucht_env.learned.policy import Policy, load_policy
from inselflucht_env.learned.shipped import resolve, shipped_names

register_agent_kind("checkpoint", CheckpointAgent)
register_agent_kind("netsearch", NetSearchAgent)
register_agent_kind("netflat", NetFlatAgent)

__all__ = [
    "CheckpointAgent",
    "CheckpointError",
    "NetFlatAgent",
    "NetSearchAgent",
    "NetworkSpec",
    "Policy",
    "SearchResult",
    "build_policy",
    "load_network",
    "load_policy",
    "read_metadata",
    "resolve",
    "save_checkpoint",
    "shipped_names",
]
