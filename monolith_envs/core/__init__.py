"""What every game shares: the Game protocol, action layouts, observation specs, plain-data states, the
PettingZoo adapter, episode logs, the conformance suite and the fuzzer."""
