"""The compiled core: the rules on flat arrays, stepped in batches by Numba kernels.

``layout`` documents the state row field by field, ``rules`` and ``observe`` are the
engine and the encoder on it (twins of ``games/inselflucht/rules/engine.py`` and
``observation.py``, held to them by the differential tests), ``kernels`` step a batch in
parallel, ``batch`` holds its arrays, ``vector_env`` is the native Gymnasium vector env
and ``sb3`` the Stable-Baselines3 ``VecEnv``; ``heuristic`` and ``search`` are the
heuristic team policy and the determinized search on the same rows (``play`` their
rollouts), ``verify`` the differential check. Nothing is imported (or compiled) here:
``import inselflucht_env`` and the plain ``Inselflucht-v0`` never load Numba.
"""
