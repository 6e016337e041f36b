"""Research tools: one-off studies behind the learning report, not part of the training
recipes (``distill``: a network from search targets; ``agreement``: how often two agents
choose alike; ``record_search``: search targets for distillation; ``learning_curves``:
curves and the learning plot from run logs; ``convert_checkpoint``: old checkpoints to the
safetensors format)."""
