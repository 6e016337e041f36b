"""``inselflucht_env.pettingzoo.env(...)``: the PettingZoo AEC env, by its short import path
(the code lives in ``inselflucht_env.envs.pettingzoo``)."""

from inselflucht_env.envs.pettingzoo import InselfluchtAEC, env, raw_env

__all__ = ["InselfluchtAEC", "env", "raw_env"]
