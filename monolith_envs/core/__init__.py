"""What every game shares: the Game protocol with its static GameInfo and per-seat outcomes (game.py), the
defaults of a game (base.py), the return modes (returns.py), action layouts, observation specs, plain-data
states, the PettingZoo adapter, chance events (chance.py), episode logs, the conformance suite with
ScriptedRng (testing.py) and the fuzzer."""
