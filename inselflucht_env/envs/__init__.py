"""The environments around the games: Gymnasium (``inselflucht``, registered as
``Inselflucht-v0``), the dict-observation wrapper (``dict_observation``), the heuristic's
advice in the observation (``advice``) and the PettingZoo AEC env (``pettingzoo``).

Nothing is imported here, so ``import inselflucht_env.envs.pettingzoo`` does not pull in
the other envs' dependencies.
"""
