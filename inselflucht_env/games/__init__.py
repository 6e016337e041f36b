"""The games, one sub-package each, found by name through ``inselflucht_env.game.get_game``."""
