"""Front ends that play games through the public API (`import rulelang`): the terminal REPL, bots,
simulation, replays, benchmarks, balance reports and the deep lint's play-tests."""
