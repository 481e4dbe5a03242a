"""Balance reports: one or more simulations (rule variants side by side) written to a folder as
Markdown, the raw JSON, and plots when matplotlib is installed (`pip install 'rulelang[plots]'`).

Every rate comes with a 95 % Wilson interval, so a designer can tell a real difference between
variants from noise.
"""
from __future__ import annotations

import functools
import json
import math
import re
import statistics
from pathlib import Path

from ..core.files import open_for_writing
from ..core.textsafe import printable


def kept_numbers(a: str | None, b: str) -> str | None:
    """Two wordings of one way to end, each number the same in both kept, the others `#` (None:
    wordings that do not line up, cut at different places)."""
    if a is None:
        return None
    parts_a, parts_b = re.split(r"(\d+|#)", a), re.split(r"(\d+|#)", b)
    if len(parts_a) != len(parts_b) or parts_a[0::2] != parts_b[0::2]:
        return None
    return "".join(x if i % 2 == 0 or x == y else "#" for i, (x, y) in enumerate(zip(parts_a, parts_b)))


def side_outcomes(record: dict) -> dict:
    """One outcome per side that played in a finished game: a win if any of its players won (a
    team wins together; where each has a goal of its own, as a game's lone neutrals, a win of
    any), else a draw if any drew, else a loss. Counted once a game, not once a player: the players
    of a side are one result, and counting them apart would narrow the intervals falsely."""
    if record.get("sides") is None or record.get("results") is None:
        return {}
    best = {"win": 0, "draw": 1, "lose": 2}
    out: dict = {}
    for side, result in zip(record["sides"], record["results"]):
        if side not in out or best[result] < best[out[side]]:
            out[side] = result
    return out


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion wins/n ((0, 1) when n is 0)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def difference(wins: int, n: int, base_wins: int, base_n: int) -> tuple[float, float, float]:
    """wins/n − base_wins/base_n and its 95 % interval (Newcombe's, from the two Wilson intervals).
    It takes the two runs as independent; games paired by seed are often closer than that, so the
    interval errs wide: a difference it excludes 0 from is there."""
    p, q = (wins / n if n else 0.0), (base_wins / base_n if base_n else 0.0)
    (lo1, hi1), (lo2, hi2) = wilson(wins, n), wilson(base_wins, base_n)
    d = p - q
    return d, d - math.sqrt((p - lo1) ** 2 + (hi2 - q) ** 2), d + math.sqrt((hi1 - p) ** 2 + (q - lo2) ** 2)


# Student's t at 97.5 % for 1..30 degrees of freedom: few games (an overnight search-bot run)
# have a wider interval than the normal 1.96 gives (3 games: ±16.3, not ±7.4 — a designer's trial)
T_975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
         2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
         2.052, 2.048, 2.045, 2.042)


def mean_interval(xs: list) -> list:
    """[mean, half-width of its 95 % interval] (Student's t; None with one value: no interval can
    be told from one game)."""
    n = len(xs)
    mean = sum(xs) / n
    # (3 decimals kept: the report prints 1, and a half-width of 7.055 kept as 7.05 was printed ±7.0 —
    # a designer recomputing the figures)
    if n < 2:
        return [round(mean, 3), None]
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return [round(mean, 3), round(t_975(n - 1) * (var / n) ** 0.5, 3)]


def t_975(df: int) -> float:
    """Student's t at 97.5 % for `df` degrees of freedom: the table up to 30, then the first terms
    of its expansion in 1/df (within 0.002 of the true value; 1.96 alone made the intervals of 40
    to 60 games 2 to 4 % too narrow, a designer's trial)."""
    if df <= len(T_975):
        return T_975[df - 1]
    z = 1.959964
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


def paired_difference(pairs: list[tuple[bool, bool]], z: float = 1.96) -> tuple[float, float, float]:
    """The difference of two proportions measured on the same games (pairs (this, base): the two
    variants played with the same seeds), and its 95 % interval: Newcombe's method 10 for paired
    data, the two Wilson intervals joined by the correlation of the pairs. Games that go the same
    way in both variants narrow it: a change is told from chance in fewer games than by `difference`."""
    n = len(pairs)
    a = sum(1 for x, y in pairs if x and y)
    b = sum(1 for x, y in pairs if x and not y)
    c = sum(1 for x, y in pairs if y and not x)
    d = n - a - b - c
    p1, p2 = (a + b) / n, (a + c) / n
    (l1, u1), (l2, u2) = wilson(a + b, n, z), wilson(a + c, n, z)
    denominator = (a + b) * (c + d) * (a + c) * (b + d)
    if denominator == 0:
        phi = 0.0
    else:
        top = a * d - b * c
        top = max(top - n / 2, 0.0) if top > 0 else top
        phi = top / math.sqrt(denominator)
    low = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    high = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    theta = p1 - p2
    return theta, max(-1.0, theta - low), min(1.0, theta + high)


def paired_text(pairs: list[tuple[bool, bool]]) -> str:
    if not pairs:
        return "– (no game ended in both)"
    d, lo, hi = paired_difference(pairs)
    verdict = " (a real difference)" if paired_real(pairs, lo, hi) else ""
    return f"{_points(d)} [{_points(lo)}, {_points(hi)}]{verdict}"


def paired_real(pairs: list[tuple[bool, bool]], lo: float, hi: float) -> bool:
    """Is a paired difference told from chance: its interval holds no 0, and the games that went
    differently in the two variants lean one way more than a fair coin would 1 time in 20 (an
    exact sign test, McNemar's). Over a handful of games Newcombe's interval alone is too bold: 2
    games of 2 going one way read "a real difference" (a designer's trial; the test gives 0.5)."""
    if lo <= 0 <= hi:
        return False
    ahead = sum(1 for x, y in pairs if x and not y)
    behind = sum(1 for x, y in pairs if y and not x)
    n = ahead + behind
    if n > 1000:                            # (the normal approximation, with continuity, is exact enough)
        return math.erfc((abs(ahead - behind) - 1) / math.sqrt(2 * n)) < 0.05
    tail = sum(math.comb(n, k) for k in range(min(ahead, behind) + 1))
    return 2 * tail < 0.05 * 2 ** n


def _points(x: float) -> str:
    """A difference in points, one decimal — two where one would read ±0.0 of something not 0
    (a change of nothing over 19,644 games read `+0.0 [-0.0, +0.0]`: a designer's trial), and one
    significant digit where even two would (a bound of 0.00005 points read `+0.00`)."""
    v = 100 * x
    if v and abs(v) < 0.005:
        return f"{v:+.1g}"
    return f"{v:+.2f}" if v and abs(v) < 0.05 else f"{v:+.1f}"


def rate_text(wins: int, n: int) -> str:
    if not n:
        return "– (no game ended)"
    lo, hi = wilson(wins, n)
    return f"{pct(wins / n)} [{pct(lo)}, {pct(hi)}]"


def pct(x: float) -> str:
    """A rate in per cent, one decimal — two where one would read 0.0 % of something not 0 (0 wins
    in 19,644 games: the interval [0.0%, 0.02%], not [0.0%, 0.0%] — a designer's trial). A bound that
    is 0 or 1 but for rounding (Wilson's upper bound of 6 wins in 6) reads as one: 100.0%."""
    if abs(x) < 1e-9 or abs(1 - x) < 1e-9:
        x = round(x)
    return f"{x:.2%}" if 0 < x < 0.0005 or 0 < 1 - x < 0.0005 else f"{x:.1%}"


def variant_name(result: dict) -> str:
    """The rule file (when files are compared), the player count (when several are simulated) and the
    options of one simulation."""
    opts = result.get("options") or {}
    parts = (([result["rules"]] if result.get("rules") else [])
             + ([f"{result['players']} player{'s' if result['players'] != 1 else ''}"] if result.get("sweeps_players") else [])
             + [option_text(k, v) for k, v in opts.items()])
    return ", ".join(parts) or "default"


def option_text(key: str, value) -> str:
    """`key=value` as the option is typed (`misere=true`, not Python's `misere=True`)."""
    return f"{key}={str(value).lower() if isinstance(value, bool) else value}"


def legal_by_decision(records: list[dict], buckets: int = 10) -> list[float]:
    """The mean number of legal actions at each tenth of the games (by decision index)."""
    sums, counts = [0.0] * buckets, [0] * buckets
    for r in records:
        n = len(r["legal"])
        for i, k in enumerate(r["legal"]):
            b = min(buckets - 1, i * buckets // n)
            sums[b] += k
            counts[b] += 1
    return [s / c if c else None for s, c in zip(sums, counts)]     # (None: no decision there)


def _cell(text: str) -> str:
    """A text in a Markdown table cell: printable, short, no `|`."""
    text = printable(text).replace("|", "/")
    return text if len(text) <= 120 else text[:119] + "…"      # (an ending's words: see way_to_end)


def summary(result: dict) -> dict:
    """What a report shows of one simulation (plain data: also the raw JSON's `summary`)."""
    records = [r for r in result["records"] if not r["error"]]
    n = len(records)
    taken: dict = {}
    for r in result["records"]:
        for name, k in r["taken"].items():
            taken[name] = taken.get(name, 0) + k
    lengths = sorted(r["actions"] for r in records)
    leads = [r["lead_changes"] for r in records if r["lead_changes"] is not None]
    return {
        "variant": variant_name(result),
        "finished": n,
        "seats": [{"seat": f"P{s + 1}", "wins": c["win"], "draws": c["draw"], "games": n,
                   "interval": wilson(c["win"], n)} for s, c in enumerate(result["outcomes_by_seat"])],
        # (games two sides won at once, where the rules allow it: the sides' rates then add up past
        # 100 %, which a designer's trial read as an error)
        "shared_wins": sum(1 for r in records if r.get("sides") and r.get("results")
                           and len({side for side, x in zip(r["sides"], r["results"]) if x == "win" and side}) > 1),
        "sides": [{"side": side, "wins": c["win"], "games": sum(c.values()), "interval": wilson(c["win"], sum(c.values()))}
                  for side, c in result["outcomes_by_side"].items()],
        "draws": {"draws": result["draws"], "games": n, "interval": wilson(result["draws"], n)},
        "length": {"mean": sum(lengths) / n if n else None, "min": lengths[0] if lengths else None,
                   # (the mean of the two middle games where their number is even: the upper one
                   # read 129 for 123.5 in a designer's 16 games)
                   "median": statistics.median(lengths) if lengths else None, "max": lengths[-1] if lengths else None},
        "lengths": lengths,
        "legal_by_decision": legal_by_decision(records),
        "actions_taken": dict(sorted(taken.items(), key=lambda kv: -kv[1])),
        "lead_changes": (sum(leads) / len(leads)) if leads else None,
        "endings": result.get("endings") or [],
        "estimate": result.get("estimate_by_seat"),    # per seat: [mean, 95 % half-width], or None
        "score": result.get("score_by_seat"),          # per seat, the same of the score at the end
        "errors": result["errors"],
    }


def write_report(results: list[dict], directory: str, not_run=()) -> list[str]:
    """Write report.md, report.json and (with matplotlib) plots; the files written. `not_run`: the
    variants of the sweep a spent budget (or an interrupt) left unplayed, named in the report."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    sums = [summary(r) for r in results]
    written = []
    found = changes(results)
    raw = {"simulations": [{k: v for k, v in r.items()} for r in results], "summaries": sums, "changes": found}
    with open_for_writing(out / "report.json") as file:
        file.write(json.dumps(raw, ensure_ascii=False))
    written.append(str(out / "report.json"))
    plots = _plots(results, sums, out)
    written += [str(out / p) for p in plots]
    with open_for_writing(out / "report.md") as file:
        file.write(_markdown(results, sums, plots, found, list(not_run)))
    written.insert(0, str(out / "report.md"))
    return written


def _markdown(results: list[dict], sums: list[dict], plots: list[str], found: list[dict],
              not_run: list | None = None) -> str:
    first = results[0]
    played = sorted({r["games"] for r in results})
    planned = first.get("planned", first["games"])
    games = f"{first['games']} games per variant" if played == [planned] else \
        f"{' / '.join(map(str, played))} of the {planned} games asked per variant"
    counts = list(dict.fromkeys(r["players"] for r in results))
    seats = max(counts)                        # (rows for every seat of the largest count)
    # (the bots by seat, as the terminal says them: "bots: random, greedy" left a designer to guess
    # which seat had which)
    who = (f"{counts[0]} player{'s' if counts[0] != 1 else ''}, bots: "
           + ", ".join(f"P{i + 1} {printable(b)}" for i, b in enumerate(first["bots"]))
           if len(counts) == 1
           else f"{', '.join(map(str, counts))} players (a variant each), bots: "
                f"{', '.join(dict.fromkeys(b for r in results for b in r['bots']))}")
    lines = [f"# {printable(first['game'])}: balance report", "",
             f"{games}, {who}, seed {first['seed']}. Rates are given with their 95 % (Wilson) interval"
             + ("; – for a seat a variant does not have" if len(counts) > 1 else "") + ".", ""]
    prints = list(dict.fromkeys((r.get("rules"), r.get("fingerprint")) for r in results if r.get("fingerprint")))
    if prints:                                 # (the rules measured: a designer could not tell which version)
        lines += ["Rules measured (their fingerprint, as saves name them): " + "; ".join(
            (f"{printable(str(name))} " if name else "") + f"`{printable(str(fp))}`" for name, fp in prints) + ".", ""]
    kinds = {str(b) for r in results for b in r["bots"]}
    notes = []                                 # what the bots are, read the next morning (a designer's trial)
    if any(k.split(":")[0] == "mcts" for k in kinds):
        notes.append("`mcts` sees every hidden card: an upper bound of skill, not a fair player.")
    if any(k in ("mcts", "ismcts") for k in kinds):
        notes.append("A search bot named without a budget stops at a CPU time per move: the same seed on "
                     "another machine may give other games (`ismcts:200`, a number of iterations, does not).")
    if notes:
        lines += [" ".join(notes), ""]
    cut = list(dict.fromkeys(printable(r["stopped"]) for r in results if r.get("stopped")))   # (one budget: said once)
    if cut or not_run:
        lines += ["**Cut short:** " + " ".join(cut + ([f"Not run: {'; '.join(printable(v) for v in not_run)}."]
                                                      if not_run else []))
                  , ""]
    head = "| | " + " | ".join(printable(s["variant"]) for s in sums) + " |"
    rule = "|---|" + "---|" * len(sums)
    lines += ["## Win rates", "", head, rule]
    for i in range(seats):
        lines.append(f"| P{i + 1} wins | " + " | ".join(rate_text(s["seats"][i]["wins"], s["finished"])
                                                      if i < len(s["seats"]) else "–" for s in sums) + " |")
    sides = sorted({x["side"] for s in sums for x in s["sides"]})
    for side in sides:
        cells = []
        for s in sums:
            x = next((y for y in s["sides"] if y["side"] == side), None)
            # (of how many games the side played: a character dealt in 65 of 99, a designer's trial)
            cells.append(f"{rate_text(x['wins'], x['games'])} of {x['games']}" if x else "–")
        lines.append(f"| side {printable(side)} | " + " | ".join(cells) + " |")
    if any(s.get("shared_wins") for s in sums):
        lines.append("| games won by two sides at once (the sides' rates add up past 100 %) | "
                     + " | ".join(str(s.get("shared_wins", 0)) for s in sums) + " |")
    lines.append("| draws | " + " | ".join(rate_text(s["draws"]["draws"], s["finished"]) for s in sums) + " |")
    lines.append("| games that ended (the rates' base) | " + " | ".join(str(s["finished"]) for s in sums) + " |")
    if any(s.get("estimate") for s in sums):       # how far each seat got, where wins are rare (co-op)
        for i in range(seats):
            lines.append(f"| P{i + 1} estimate at the end (0–100) | " + " | ".join(
                "–" if not s.get("estimate") or i >= len(s["estimate"]) else f"{s['estimate'][i][0]:.1f}" + (
                    f" ±{s['estimate'][i][1]:.1f}" if s["estimate"][i][1] is not None else " (one game)")
                for s in sums) + " |")
    if any(s.get("score") for s in sums):          # the score at the end, where the rules keep one
        for i in range(seats):
            lines.append(f"| P{i + 1} score at the end | " + " | ".join(
                "–" if not s.get("score") or i >= len(s["score"]) else f"{s['score'][i][0]:,.1f}" + (
                    f" ±{s['score'][i][1]:,.1f}" if s["score"][i][1] is not None else " (one game)")
                for s in sums) + " |")
    lines += _changes(found)
    lines += ["", "## Game length (actions)", "", head, rule]
    for key in ("mean", "min", "median", "max"):
        lines.append(f"| {key} | " + " | ".join("–" if s["length"][key] is None else f"{s['length'][key]:.1f}"
                                                if key == "mean" else f"{s['length'][key]:g}" for s in sums) + " |")
    if any(s["lead_changes"] is not None for s in sums):
        lines.append("| lead changes per game | " + " | ".join(
            "–" if s["lead_changes"] is None else f"{s['lead_changes']:.2f}" for s in sums) + " |")
    # how games ended: the ten most common ways of all variants, one row each across them — a way is
    # its words with every number `#` (a variant whose games all ended "P2 cannot move" keeps the 2,
    # another's "P# cannot move" was a row of its own: one ending at 25 % in both read as one
    # vanishing and one appearing, a designer's trial)
    counts = [{} for _ in sums]
    words: dict = {}
    for i, s in enumerate(sums):
        for why, k in s["endings"]:
            way = re.sub(r"\d+", "#", why)
            counts[i][way] = counts[i].get(way, 0) + k
            words.setdefault(way, set()).add(why)
    reasons = sorted(words, key=lambda way: (-sum(c.get(way, 0) for c in counts), list(words).index(way)))
    if reasons:
        lines += ["", "## How games ended (share of finished games; #: a number)", "", head, rule]
        for way in reasons[:10]:
            shown = functools.reduce(kept_numbers, sorted(words[way])) or way     # (numbers alike in all kept)
            lines.append(f"| {_cell(shown)} | " + " | ".join(
                f"{c.get(way, 0) / (s['finished'] or 1):.1%}" for c, s in zip(counts, sums)) + " |")
        if len(reasons) > 10:
            lines.append(f"| ({len(reasons) - 10} other reasons) | " + " | ".join("" for _ in sums) + " |")
    lines += ["", "## Legal actions per decision, over the game (tenths)", "", head, rule]
    for b in range(10):
        lines.append(f"| {b * 10}–{b * 10 + 10} % | " + " | ".join(
            "–" if s["legal_by_decision"][b] is None else f"{s['legal_by_decision'][b]:.1f}" for s in sums) + " |")
    lines += ["", "## Actions taken", "", head, rule]
    names: dict = {}                             # (a dict: 200,000 names read from a crafted journal were
    for s in sums:                               #  quadratic as a list — a fuzzer's hour)
        names.update(dict.fromkeys(s["actions_taken"]))
    totals = [sum(s["actions_taken"].values()) or 1 for s in sums]
    for name in names:
        cells = []
        for s, total in zip(sums, totals):
            k = s["actions_taken"].get(name, 0)
            cells.append(f"{k} ({k / total:.1%})")
        lines.append(f"| {printable(name)} | " + " | ".join(cells) + " |")
    lines += ["", "## Errors", "", head, rule, "| games stopped by an error | " + " | ".join(
        str(s["errors"]) for s in sums) + " |", ""]
    if plots:
        lines += ["## Plots", ""] + [f"![{p}]({p})" for p in plots] + [""]
    else:
        lines += ["(Plots need matplotlib: `pip install 'rulelang[plots]'`.)", ""]
    return "\n".join(lines)


def bases(results: list[dict]) -> list[int | None]:
    """What each variant is measured against (an index, or None: it is a base). Only games of one
    player count are compared. With rule files compared (each file meets every player count and
    option set, file after file), a changed file's variant against the first file's with the same
    count and options — a swept option, seats swapped say, is not the change asked about; with
    options swept alone, every variant against the first of its player count."""
    def options(i: int) -> dict:
        return results[i].get("options") or {}
    first_file = results[0].get("rules")
    compared = any(r.get("rules") != first_file for r in results)
    found: list[int | None] = []
    for i, r in enumerate(results):
        base = next((j for j in range(i) if results[j]["players"] == r["players"]
                     and results[j].get("rules") == first_file
                     and (not compared or options(j) == options(i))), None)
        found.append(None if base is None or (compared and r.get("rules") == first_file) else base)
    return found


def _ended(result: dict) -> dict:
    """The games that ended, by their index (the same index is the same seed in every variant)."""
    return {r["game"]: r for r in result["records"] if not r["error"] and r.get("results") is not None}


def changes(results: list[dict]) -> list[dict]:
    """Each variant against its base (`bases`), on the games both played to the end with the same
    seeds, paired game by game (`paired_difference`): per compared variant `{"variant", "against",
    "variant_index", "against_index", "games_paired", "rows"}` (the indices: of the results), a row `{"row", "difference", "interval", "real", "games"}` (a difference in
    win rate; `difference` None: no game ended in both) or, for the rules' estimate, `{"row",
    "mean", "half", "real"}`. What report.md's "Changes" table, the terminal and `--json` show."""
    against = [(i, b) for i, b in enumerate(bases(results)) if b is not None]
    if not against:
        return []
    players = max(results[i]["players"] for i, _ in against)
    sides = sorted({side for r in results for side in r.get("outcomes_by_side") or {}})
    out = []
    for i, b in against:
        this, base = _ended(results[i]), _ended(results[b])
        both = [g for g in this if g in base]
        rows: list[dict] = []

        def rate(name: str, pick) -> None:
            pairs = [(pick(this[g]), pick(base[g])) for g in both]
            pairs = [(bool(x), bool(y)) for x, y in pairs if x is not None and y is not None]
            if not pairs:
                rows.append({"row": name, "difference": None, "interval": None, "real": False})
                return
            d, lo, hi = paired_difference(pairs)
            rows.append({"row": name, "difference": d, "interval": [lo, hi], "real": paired_real(pairs, lo, hi),
                         "games": len(pairs)})
        for seat in range(min(players, results[i]["players"])):
            rate(f"P{seat + 1} wins", lambda r, seat=seat: r["results"][seat] == "win")
        for side in sides:
            rate(f"side {side}", lambda r, side=side: (
                None if side not in side_outcomes(r) else side_outcomes(r)[side] == "win"))
        rate("draws", lambda r: "draw" in r["results"])
        for key, summed, what in (("estimate", "estimate_by_seat", "estimate"), ("scores", "score_by_seat", "score")):
            if not results[b].get(summed):
                continue
            for seat in range(results[i]["players"]):
                diffs = [this[g][key][seat] - base[g][key][seat] for g in both
                         if this[g].get(key) is not None and base[g].get(key) is not None]
                mean, half = mean_interval(diffs) if diffs else (None, None)
                rows.append({"row": f"P{seat + 1} {what} at the end", "mean": mean, "half": half,
                             "real": half is not None and abs(mean) > half})     # (as the rates' rows say it)
        # (how long the games are, paired too: often a change's main effect — a designer's trial read
        # a board game's length go from 81 to 105 actions in two tables, with nothing to say it was no chance)
        diffs = [this[g]["actions"] - base[g]["actions"] for g in both
                 if isinstance(this[g].get("actions"), int) and isinstance(base[g].get("actions"), int)]
        if diffs:
            mean, half = mean_interval(diffs)
            rows.append({"row": "game length (actions)", "mean": mean, "half": half,
                         "real": half is not None and abs(mean) > half})
        out.append({"variant": variant_name(results[i]), "against": variant_name(results[b]),
                    "variant_index": i, "against_index": b, "games_paired": len(both), "rows": rows})
    return out


def change_text(row: dict, paired: int | None = None) -> str:
    """One row of `changes` as the report and the terminal print it; with the number of games
    `paired`, a row measured on fewer of them says on how many (a side two of them were dealt)."""
    if "mean" in row:
        if row["half"] is None:
            return "–"
        # (two decimals where the interval is under 1: `+0.4 ±0.4 (a real difference)` read as an
        # interval that touches 0 — a designer's trial; it was +0.41 ±0.36)
        places = 2 if 0 < row["half"] < 1 else 1
        return f"{row['mean']:+.{places}f} ±{row['half']:.{places}f}" + (" (a real difference)" if row["real"] else "")
    if row["difference"] is None:
        return "– (no game ended in both)"
    lo, hi = row["interval"]
    few = f" (of {row['games']} games)" if paired is not None and row.get("games", paired) < paired else ""
    return f"{_points(row['difference'])} [{_points(lo)}, {_points(hi)}]{few}" + (" (a real difference)" if row["real"] else "")


CHANGES_NOTE = ("An interval that holds 0 is a difference these games cannot tell from chance. Games that "
                "go the same way in both variants narrow it (the same seed deals the same cards): a "
                "change is found in fewer games than two runs taken apart would need. A difference is "
                "called real only when, besides, the games that went differently lean one way more than a "
                "fair coin would 1 time in 20 (few games never are). Each row is tested "
                "on its own: among twenty rows that did not change, one is expected to show \"a real "
                "difference\" by chance — a lone one among many is a lead to test with more games.")


def _changes(found: list[dict]) -> list[str]:
    """report.md's table of `changes`, a column per compared variant."""
    if not found:
        return []
    lines = ["", "## Changes (win rate difference in points, 95 % interval; each game paired with the same "
                 "seed's game in the base)", "",
             "| | " + " | ".join(f"{printable(c['variant'])} against {printable(c['against'])}" for c in found)
             + " |", "|---|" + "---|" * len(found)]
    names = sorted(dict.fromkeys(row["row"] for c in found for row in c["rows"]), key=_row_order)
    for name in names:
        cells = []
        for c in found:
            row = next((r for r in c["rows"] if r["row"] == name), None)
            cells.append("–" if row is None else change_text(row, c["games_paired"]))
        lines.append(f"| {printable(name)} | " + " | ".join(cells) + " |")
    lines.append("| games paired | " + " | ".join(str(c["games_paired"]) for c in found) + " |")
    lines += ["", CHANGES_NOTE]
    return lines


def _row_order(name: str) -> tuple:
    """Seats' rows first (P1, P2, … P10), then sides, draws, and the estimates (a variant of more
    players adds rows the first did not have)."""
    first = name.split(" ")[0]
    seat = int(first[1:]) if first[:1] == "P" and first[1:].isascii() and first[1:].isdigit() and len(first) < 12 else 0
    if seat and name.endswith(" wins"):
        return (0, seat)
    if name.startswith("side "):
        return (1, 0)
    if name == "draws":
        return (2, 0)
    if name == "game length (actions)":
        return (5, 0)
    return (3 if "estimate" in name else 4, seat)


def changes_for_terminal(found: list[dict]) -> str:
    """`changes` as a few lines for the terminal, after each variant's own figures (the comparison
    was in report.md only: a designer's trial)."""
    lines = ["changes (each game paired with the same seed's game in the base; a win rate's difference in "
             "points with its 95% interval, a score's, estimate's or game length's mean difference ± the half-width "
             "of its own):"]
    for c in found:
        lines.append(printable(f"  {c['variant']} against {c['against']}, {c['games_paired']} games paired:"))
        lines.append("    " + "; ".join(printable(f"{row['row']} {change_text(row, c['games_paired'])}") for row in c["rows"]))
    # (report.md said so, the terminal did not: a designer's trial)
    lines.append("  (a row not marked \"a real difference\" is one these games cannot tell from chance — a win "
                 "rate's row is marked when its interval holds no 0 and the games that went one way outnumber "
                 "those that went the other beyond chance, McNemar's test: docs/bots.md; about 1 row in 20 that "
                 "did not change is marked by chance)")
    return "\n".join(lines)


def _plots(results: list[dict], sums: list[dict], out: Path) -> list[str]:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    names = [s["variant"] for s in sums]
    files = []
    players = max(r["players"] for r in results)
    fig, ax = plt.subplots(figsize=(7, 3.5))
    width = 0.8 / len(sums)
    for k, s in enumerate(sums):
        rates = [x["wins"] / x["games"] if x["games"] else 0 for x in s["seats"]]
        # (a rate of 0 or 1: its Wilson bound may lie a rounding error past it, and a bar's error
        # may not be negative)
        errs = [[max(0.0, r - x["interval"][0]) for r, x in zip(rates, s["seats"])],
                [max(0.0, x["interval"][1] - r) for r, x in zip(rates, s["seats"])]]
        ax.bar([i + k * width for i in range(len(rates))], rates, width, yerr=errs, capsize=3, label=names[k])
    ax.set_xticks([i + width * (len(sums) - 1) / 2 for i in range(players)])
    ax.set_xticklabels([f"P{i + 1}" for i in range(players)])
    ax.set_ylabel("win rate (95 % interval)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize="small")
    fig.tight_layout()
    with open_for_writing(out / "win_rates.png", binary=True) as file:
        fig.savefig(file, format="png", dpi=110)
    plt.close(fig)
    files.append("win_rates.png")
    fig, ax = plt.subplots(figsize=(7, 3.5))
    for k, s in enumerate(sums):
        if s["lengths"]:
            ax.hist(s["lengths"], bins=30, alpha=0.5, label=names[k])
    ax.set_xlabel("actions per game")
    ax.set_ylabel("games")
    if any(s["lengths"] for s in sums):        # (no game ended: no legend — matplotlib warned of it)
        ax.legend(fontsize="small")
    fig.tight_layout()
    with open_for_writing(out / "game_length.png", binary=True) as file:
        fig.savefig(file, format="png", dpi=110)
    plt.close(fig)
    files.append("game_length.png")
    fig, ax = plt.subplots(figsize=(7, 3.5))
    for k, s in enumerate(sums):
        ax.plot([b * 10 + 5 for b in range(10)], [float("nan") if v is None else v for v in s["legal_by_decision"]],
                marker="o", label=names[k])
    ax.set_xlabel("progress through the game (%)")
    ax.set_ylabel("legal actions per decision")
    ax.legend(fontsize="small")
    fig.tight_layout()
    with open_for_writing(out / "legal_actions.png", binary=True) as file:
        fig.savefig(file, format="png", dpi=110)
    plt.close(fig)
    files.append("legal_actions.png")
    return files
