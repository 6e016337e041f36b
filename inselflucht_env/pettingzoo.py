"""``inselflucht_env.pettingzoo.env(...)``: the PettingZoo AEC envs, by their short import
path (the code lives in ``inselflucht_env.envs.pettingzoo``): ``env(players=3)`` is
Inselflucht, ``env(game="forbidden_island", players=3)`` Forbidden Island."""

from inselflucht_env.envs.pettingzoo import ForbiddenIslandAEC, InselfluchtAEC, env, raw_env

__all__ = ["ForbiddenIslandAEC", "InselfluchtAEC", "env", "raw_env"]
