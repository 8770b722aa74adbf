"""Throughput and latency benchmarks for the monolith_envs environments.

Run ``python -m benchmarks.run [--quick]``; see ``benchmarks/README.md`` for what each figure means.

Modules:
    timing:       budgets, timers, medians and the random masked policy shared by every loop.
    specs:        which environments and configurations are measured (Monolith ids and references).
    monolith:     measurements of a registered ``monolith_envs`` environment.
    references:   the same loops on PettingZoo classic and OpenSpiel games.
    single_agent: a minimal single-agent gymnasium view of an AEC env (learner vs random opponents).
    train_bench:  MaskablePPO training throughput with DummyVecEnv and SubprocVecEnv.
    report:       the markdown tables and the JSON file under ``benchmarks/results/``.
    run:          the command line entry point.
    profiling:    cProfile of the AEC and engine loops (``python -m benchmarks.profiling``).
"""
