"""Which deals each job plays: one table, so that no two jobs ever share a deal.

A game dealt with seed ``s`` is the same game everywhere (``State.new(config,
default_rng(s))``), so a policy trained or selected on the deals it is then reported on would
look better than it is. Every job draws its seeds from its own block of a million:

| first seed | job                                                  | used by            |
|------------|------------------------------------------------------|--------------------|
| 0          | reported results: the README, ``train.difficulty``   | ``train.evaluate`` |
| 1,000,000  | teacher games for behaviour cloning                  | ``pretrain``       |
| 2,000,000  | DAgger rounds (round k: + k * dagger_games)          | ``train.train``    |
| 3,000,000  | PPO training environments (+ training.seed)          | ``train.train``    |
| 4,000,000  | PPO's periodic masked evaluation (+ training.seed)   | ``train.train``    |
| 5,000,000  | the choice among pretrained / best / final           | ``train.ship``     |
| 10,000,000 | expert iteration: warm-start teacher games           | ``expert_iteration`` |
| 11,000,000 | expert iteration: evaluation after every iteration   | ``expert_iteration`` |
| 20,000,000 | self-play, iteration k: + k * 100,000                | ``expert_iteration`` |
"""

REPORT_SEEDS = 0
TEACHER_SEEDS = 1_000_000
DAGGER_SEEDS = 2_000_000
TRAIN_SEEDS = 3_000_000
EVAL_SEEDS = 4_000_000
SELECTION_SEEDS = 5_000_000
WARM_START_SEEDS = 10_000_000
EXIT_EVAL_SEEDS = 11_000_000
SELF_PLAY_SEEDS = 20_000_000
SEEDS_PER_ITERATION = 100_000
