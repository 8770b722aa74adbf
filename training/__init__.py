"""Self-play training and evaluation for the Monolith games (MaskablePPO, sb3-contrib).

* :mod:`training.wrapper` -- single-agent Gymnasium view of an AEC game (opponents act inside ``step``).
* :mod:`training.selfplay` -- opponent pool: frozen snapshots of the learner mixed with fixed agents.
* :mod:`training.config` -- TOML configs with documented, validated keys.
* :mod:`training.pretrain` -- optional behaviour-cloning warm start from a teacher agent.
* ``python -m training.train`` / ``python -m training.evaluate`` -- the command lines.
"""
