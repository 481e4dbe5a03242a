"""Full traces of seeded random games: the yardstick that an engine change altered nothing.

A trace is, for every decision of a random game, the actor, every legal action's text in order,
the action chosen and a digest of `state()`. Two engines (or one engine with its optimisations on
and off) that give the same traces for the same seeds behave the same on those games.

    python tests/traces.py record OUT.json     # traces of the corpus below, with this checkout
    python tests/traces.py compare OUT.json    # the same corpus now: exit 1 on the first difference
    python tests/traces.py compare OUT.json regicide valgard   # only the rule files whose path has one
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def trace(game, players: int, seed: int, options: dict | None = None, limit: int = 300) -> list:
    """One seeded random game as a list of [actor, legal texts, chosen, state digest] entries."""
    m = game.new_match(players, seed=seed, options=options)
    rng = random.Random(seed)
    out = [_digest(m.state())]
    while not m.is_over and len(out) < limit:
        legal = [str(a) for a in m.legal_actions()]
        chosen = rng.choice(legal)
        actor = m.current_player
        m.apply(chosen)
        out.append([actor, legal, chosen, _digest(m.state())])
    return out


def _digest(state: dict) -> str:
    """The state's digest, leaving out the rules' fingerprint (a hash of the IR, not of the
    position), also where a paused effect's base carries one."""
    return hashlib.sha256(json.dumps(_unprinted(state), sort_keys=True).encode()).hexdigest()[:20]


def _unprinted(x):
    if isinstance(x, dict):
        return {k: _unprinted(v) for k, v in x.items() if k != "fingerprint"}
    if isinstance(x, list):
        return [_unprinted(v) for v in x]
    return x


def corpus() -> list[tuple[str, int, dict | None]]:
    """(rule file, players, options) of the games traced: the five real games at each player count."""
    games = [("games/regicide.rules", p, None) for p in (1, 2, 3, 4)]
    games += [("games/valgard.rules", 2, None), ("games/valgard.rules", 2, {"hardcore": True})]
    games += [("games/smash_up.rules", p, None) for p in (2, 3, 4)]
    games += [("games/shadow_hunters.rules", p, None) for p in (4, 5, 6, 7, 8)]
    games += [("games/shadow_hunters.rules", 6, {"characters": "all"})]
    games += [("games/dozen_war.rules", p, None) for p in (2, 3, 4)]
    games += [("games/dozen_war.rules", 4, {"alliance": True}), ("games/dozen_war.rules", 2, {"generals": "random"})]
    return games


def lint_clean_corpus() -> list[str]:
    """Lint-corpus rule files with no lint error (they compile and can be played), nor a family
    too large to load (W221). Worked out once for this code and corpus, not in every test process
    (linting the 165 files took 4 s of each xdist worker's collection): the answer is kept in the
    temporary folder under a digest of the package, the grammar and the corpus."""
    import fcntl
    import tempfile
    corpus = ROOT / "tests" / "lint" / "corpus"
    digest = hashlib.sha256()
    for path in sorted([*(ROOT / "rulelang").rglob("*.py"), *(ROOT / "grammar").glob("*"), *corpus.glob("*")]):
        if path.is_file():
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    # (a folder of this user's: another's left in the temporary folder is not theirs to write — a review)
    folder = Path(tempfile.gettempdir()) / f"rulelang-tests-{os.getuid()}"
    kept = folder / f"lint-clean-{digest.hexdigest()[:32]}.json"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        lock = open(folder / "lint-clean.lock", "w")
    except OSError:
        return _lint_clean(corpus)                # (nowhere to keep it: worked out here)
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)          # (the other workers wait for the first one's answer)
        try:
            return json.loads(kept.read_text())
        except (OSError, ValueError):
            pass
        out = _lint_clean(corpus)
        try:
            partial = kept.with_suffix(f".{os.getpid()}")
            partial.write_text(json.dumps(out))
            partial.replace(kept)
        except OSError:
            pass
        return out


def _lint_clean(corpus: Path) -> list[str]:
    import rulelang
    out = []
    for path in sorted(corpus.glob("*.rules")):
        diags, _ = rulelang.lint([str(path)])
        if not any(d.severity == "error" or d.code == "W221" for d in diags):
            out.append(str(path.relative_to(ROOT)))
    return out


def record(seeds: int = 20, corpus_seeds: int = 3, only: list[str] | None = None) -> dict:
    """The traces of the corpus; with `only`, of the rule files whose path contains one of those
    texts (`compare OUT.json regicide valgard`)."""
    import rulelang
    traces = {}
    for path, players, options in corpus():
        if only and not any(o in path for o in only):
            continue
        game = rulelang.load(path)
        for seed in range(seeds):
            traces[f"{path} {players} {options} {seed}"] = trace(game, players, seed, options)
    for path in lint_clean_corpus():
        if only and not any(o in path for o in only):
            continue
        try:
            game = rulelang.load(path)
        except rulelang.RulelangError:
            continue
        for seed in range(corpus_seeds):
            try:
                t = trace(game, game.min_players, seed)
            except rulelang.RulelangError as err:        # a corpus file made to fail at run time
                t = ["error", str(err)]
            traces[f"{path} {game.min_players} None {seed}"] = t
    return traces


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)                      # paths relative to the checkout, as rule errors quote them
    command, out, only = sys.argv[1], Path(sys.argv[2]), sys.argv[3:]     # (only: path texts, see record)
    if command == "record":
        out.write_text(json.dumps(record(only=only)), encoding="utf-8")
        print(f"recorded {len(json.loads(out.read_text()))} games")
    else:
        before, now = json.loads(out.read_text(encoding="utf-8")), record(only=only)
        if only:
            before = {k: v for k, v in before.items() if any(o in k.split()[0] for o in only)}
        differ = [k for k in before if before[k] != now.get(k)]
        print(f"compared {len(before)} games: {len(differ)} differ" + (f", first: {differ[0]}" if differ else ""))
        sys.exit(1 if differ or set(before) != set(now) else 0)
