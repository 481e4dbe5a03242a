"""Shadow Hunters, hidden information (H13, scenario 10): over full random games at 4 to 8 players,
nothing a player is shown tells them what they may not know.

What player p may know is worked out here, from `state()` and the actions played, not from what
`view()` shows:
- the characters p knows: p's own, every revealed one (`vars.revealed`), and those shown to p by a
  Hermit's Prediction p gave and whose receiver answered "it applies" (tracked from the actions);
- the hermit card being resolved, if p is its giver (whose turn it is when it is drawn) or its
  receiver (the first other player asked while it resolves).
Secret from p: the name of every other character (those dealt and not known to p, and all of the
unused pool), the faction of a character p does not know when a text ties it to that character's
player, its HP likewise (and `max_hp` must show "?"), the names of its abilities and win condition,
and the name of every hermit card p is not party to.

After every action (and every out-of-turn interrupt), for every player p, these are scanned:
every text in `view(p)` (keys too; one by one, each once per state of p's knowledge), the legal
actions when p is to act, p's interrupts, the messages p may read that this action wrote, and the
text just played (everyone sees what was played). The self-tests show the scanner flags planted
leaks, including leaks planted in a copy of the rules.
"""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

import rulelang
from sh_helpers import ROOT, Position, game, play, player_lines

CHARACTERS = {   # name: (faction, HP) — the card reference's table
    "Unknown": ("Shadow", 11), "Vampire": ("Shadow", 13), "Werewolf": ("Shadow", 14),
    "Ultra Soul": ("Shadow", 11), "Valkyrie": ("Shadow", 13), "Wight": ("Shadow", 14),
    "Emi": ("Hunter", 10), "Franklin": ("Hunter", 12), "George": ("Hunter", 14),
    "Ellen": ("Hunter", 10), "Fu-ka": ("Hunter", 12), "Gregor": ("Hunter", 14),
    "Allie": ("Neutral", 8), "Bob": ("Neutral", 10), "Charles": ("Neutral", 11), "Daniel": ("Neutral", 13),
    "Agnes": ("Neutral", 8), "Bryan": ("Neutral", 10), "Catherine": ("Neutral", 11), "David": ("Neutral", 13),
}
# the names of each character's ability and phrases of its win condition
ABILITY_WORDS = {
    "Unknown": ["Deceit"], "Vampire": ["Suck Blood"], "Werewolf": ["Counterattack"],
    "Ultra Soul": ["Murder Ray"], "Valkyrie": ["Horn of War"], "Wight": ["Multiplication"],
    "Emi": ["Teleport"], "Franklin": ["Lightning"], "George": ["Demolish"],
    "Ellen": ["Chain of Forbidden Curse", "loses its special ability"], "Fu-ka": ["Dynamite Nurse"],
    "Gregor": ["Ghostly Barrier"], "Allie": ["Mother's Love", "alive when the game ends"],
    "Bob": ["Robbery", "5 or more equipment"], "Charles": ["Bloody Feast"],
    "Daniel": ["Scream", "first to die"], "Agnes": ["Capriccio", "wins with the player on the", "neighbour wins"],
    "Bryan": ["Oh My God"], "Catherine": ["Stigmata", "last two"], "David": ["Grave Digger"],
}
FACTIONS = ("Shadow", "Hunter", "Neutral")
GAME_NAME = "Shadow Hunters"
PLAYER = re.compile(r"(?<![A-Za-z0-9])P(\d+)(?![0-9])")
HP = re.compile(r"(?<![0-9])(\d+) ?HP\b")
FACTION = re.compile(r"(?<![A-Za-z])(Shadow|Hunter|Neutral)s?(?![a-z])", re.IGNORECASE)
ABILITY = re.compile(r"(?<![A-Za-z])(" + "|".join(re.escape(w) for ws in ABILITY_WORDS.values() for w in ws) + ")",
                     re.IGNORECASE)
ABILITY_OF = {w.lower(): name for name, ws in ABILITY_WORDS.items() for w in ws}


def alternation(words) -> re.Pattern:
    return re.compile(r"(?<![A-Za-z])(" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
                      + r")(?![A-Za-z])")


def strings(x) -> list[str]:
    """Every text in a view (keys too), in no particular order."""
    out, stack = [], [x]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, dict):
            stack += v
            stack += v.values()
        elif isinstance(v, list):
            stack += v
    return out


class Scanner:
    """What each player may know in a match, and the check of a text against it."""

    def __init__(self, m):
        st = m.state()
        self.n = st["players"]
        comps = st["components"]
        self.char_labels = {c["label"] for c in comps if c["kind"] == "Character"}
        self.hermit_labels = {c["label"] for c in comps if c["kind"] == "Card" and c["fields"]["color"] == "hermit"}
        self.char = [comps[st["zones"]["character"][q][0]]["label"] for q in range(self.n)]
        self.names = alternation(self.char_labels)
        self.hermits = alternation(self.hermit_labels)
        # other labels naming a character ("Vampire Bat") and the game's name are masked first
        masked = {c["label"] for c in comps if c["kind"] != "Character"
                  and self.names.search(c["label"])} | {GAME_NAME}
        self.mask = alternation(masked)
        self.masked = sorted(masked)
        self.predicted = [set() for _ in range(self.n)]   # p: the players whose card p was shown
        self.ctx = None                                   # the hermit card resolving: card, giver, receiver
        self.seen_messages = [len(m.messages_for(p)) for p in range(self.n)]
        self.checked: dict[tuple, list[str]] = {}        # (knowledge, hermit card allowed, text): leaks
        self.revealed = list(st["vars"]["revealed"])
        # the rules texts of the cards and characters are public (a hermit card's text names
        # characters and factions): they are taken out of a text before it is checked
        self.rules_texts = sorted({t for c in range(len(comps)) for t in [m.rules_text(c, 0)] if t},
                                  key=len, reverse=True)

    # ---- knowledge ----
    def knows(self, p: int) -> set[int]:
        return {p} | {q for q in range(self.n) if self.revealed[q]} | self.predicted[p]

    def hermit_allowed(self, p: int) -> set[str]:
        c = self.ctx
        if c and c["card"] and p in (c["giver"], c["receiver"]):
            return {c["card"]}
        return set()

    # ---- the check of one text ----
    def leaks(self, p: int, text: str, where: str) -> list[str]:
        """The leaks of `text` shown to p. A view repeats most of its strings from one position to
        the next: a text is checked once per state of p's knowledge."""
        key = (frozenset(self.knows(p)), frozenset(self.hermit_allowed(p)), text)
        found = self.checked.get(key)
        if found is None:
            found = self.checked[key] = self.check(*key)
        return [f"{where}: {x}" for x in found]

    def check(self, known: frozenset, allowed: frozenset, text: str) -> list[str]:
        known_names = {self.char[q] for q in known}
        short = text[:300]
        out = []
        for rules in self.rules_texts:
            if rules in text:
                text = text.replace(rules, "")
        plain = self.mask.sub("", text) if any(m in text for m in self.masked) else text
        low = plain.lower()
        # (substring tests first: the regular expressions only run where something may be found)
        if any(name in plain for name in self.char_labels):
            for name in sorted(set(self.names.findall(plain)) - known_names):
                whose = next((f"P{q + 1}'s" for q in range(self.n) if self.char[q] == name), "an unused")
                out.append(f"{whose} character {name!r} in {short!r}")
        if "Hermit" in text:
            for name in sorted(set(self.hermits.findall(text)) - allowed):
                out.append(f"hermit card {name!r} in {short!r}")
        if any(w in low for w in ABILITY_OF):
            for w in ABILITY.findall(plain):
                name = ABILITY_OF[w.lower()]
                if name not in known_names:
                    out.append(f"{name}'s ability/condition {w!r} in {short!r}")
        factions = ({f.capitalize() for f in FACTION.findall(plain)}
                    if "shadow" in low or "hunter" in low or "neutral" in low else set())
        hps = {int(x) for x in HP.findall(plain)} if "HP" in plain else set()
        if factions or hps:
            mentioned = {int(x) - 1 for x in PLAYER.findall(plain)} & set(range(self.n))
            for what, values, of in (("faction", factions, 0), ("HP", hps, 1)):
                for v in sorted(values):
                    hidden = [q for q in mentioned if q not in known and CHARACTERS[self.char[q]][of] == v]
                    shown = [q for q in mentioned if q in known and CHARACTERS[self.char[q]][of] == v]
                    alone = not mentioned and v not in {CHARACTERS[self.char[q]][of] for q in known}
                    if (hidden and not shown) or alone:
                        out.append(f"{what} {v!r} of {['P%d' % (q + 1) for q in hidden]} in {short!r}")
        return out

    def view_leaks(self, p: int, view: dict) -> list[str]:
        # "You": p's own character (its side, HP, win condition: "every Shadow character is dead")
        # and the hermit card p is party to. Its faction and HP words are about p or the rules, so
        # only names, abilities and hermit cards are checked there.
        own = [v for v in view["values"] if v["name"] == "You"]
        rest = dict(view, values=[v for v in view["values"] if v["name"] != "You"])
        out = []
        for s in strings(own):
            out += [x for x in self.leaks(p, s, f"view(P{p + 1}) You") if "faction" not in x and "HP" not in x]
        for s in set(strings(rest)):             # string by string: a faction or HP is tied to whom in its string
            out += self.leaks(p, s, f"view(P{p + 1})")
        known = self.knows(p)
        rows = player_lines(next(v["value"] for v in view["values"] if v["name"] == "Players"))
        for q in range(self.n):
            if q not in known and not re.fullmatch(rf"P{q + 1}: hidden(, \d+ damage)?"
                                                   rf"(, (cursed|protected by|\d+ more turn).*)?", rows[q]):
                out.append(f"view(P{p + 1}): P{q + 1}'s line shows more than it may: {rows[q]!r}")
        for z in view["zones"]:
            if z["name"] == "character" and z["owner"] not in known and (z["cards"] or z.get("known")):
                out.append(f"view(P{p + 1}): P{z['owner'] + 1}'s character zone shows {z}")
        return out

    # ---- one action ----
    def after(self, m, played: str, actor: int, current: int) -> list[str]:
        """Update the knowledge after `played` (by `actor`, in `current`'s turn); return the leaks."""
        st = m.state()
        if self.ctx and self.ctx.get("done"):
            self.ctx = None
        q = m.question
        if played == "draw a hermit card" and actor == current and q is not None:
            top = st["zones"]["hermit_deck"][-1] if st["zones"]["hermit_deck"] else None
            self.ctx = {"card": st["components"][top]["label"] if top is not None else None,
                        "giver": current, "receiver": None}
        if self.ctx:
            if (self.ctx["receiver"] is not None and actor == self.ctx["receiver"] and played == "it applies"
                    and self.ctx["card"] == "Hermit's Prediction"):
                self.predicted[self.ctx["giver"]].add(self.ctx["receiver"])
            if self.ctx["receiver"] is None and q is not None and q["chooser"] != self.ctx["giver"]:
                self.ctx["receiver"] = q["chooser"]
            if q is None:
                self.ctx["done"] = True
        # revealing is permanent; a reveal the rules undo would itself be a bug
        revealed = st["vars"]["revealed"]
        out = [f"P{q + 1} was revealed and is hidden again" for q in range(self.n) if self.revealed[q] and not revealed[q]]
        self.revealed = list(revealed)
        for p in range(self.n):
            out += self.view_leaks(p, m.view(p))
            if m.current_player == p:
                for a in m.legal_actions():
                    out += self.leaks(p, a.text, f"legal action of P{p + 1}")
            for a in m.interrupts(p):
                out += self.leaks(p, a.text, f"interrupt of P{p + 1}")
            msgs = m.messages_for(p)
            for text in msgs[self.seen_messages[p]:]:
                out += self.leaks(p, text, f"message to P{p + 1}")
            self.seen_messages[p] = len(msgs)
            out += self.leaks(p, played, f"played by P{actor + 1}, seen by P{p + 1}")
        return out


def play_random(m, seed: int, cap: int = 400, scanner=None):
    """Random legal actions (seldom `reveal`), now and then a random player's interrupt; every
    action is scanned. Returns the leaks found (at most a few) and the number of actions."""
    rng = random.Random(seed)
    scan = scanner or Scanner(m)
    found = scan.after(m, "", m.current_player, m.state()["current"])
    steps = 0
    while not m.is_over and steps < cap and not found:
        current = m.state()["current"]
        played = None
        if m.question is None and rng.random() < 0.04:
            p = rng.randrange(m.players)
            offers = m.interrupts(p)
            if offers:
                a = rng.choice(offers)
                played, actor = a.text, p
        if played is None:
            acts = [a.text for a in m.legal_actions()]
            plain = [a for a in acts if a != "reveal" and not a.startswith("ability")] or acts
            played = rng.choice(acts if rng.random() < 0.03 else plain)
            actor = m.current_player
        m.apply(played)
        steps += 1
        found = [f"after {steps} actions ({played!r} by P{actor + 1}): {x}"
                 for x in scan.after(m, played, actor, current)]
    return found, steps


GAMES = [(n, seed, option) for n in (4, 5, 6, 7, 8) for seed, option in ((1, "base"), (2, "expansion"), (3, "all"))]


@pytest.mark.parametrize("players,seed,option", GAMES)
def test_no_player_learns_what_they_may_not_know(players, seed, option):
    m = game.new_match(players, seed=seed, options={"characters": option})
    found, steps = play_random(m, seed * 100 + players)
    assert found == [], "\n".join(found[:5])
    assert steps > 20


def test_another_eight_player_game_with_every_character_leaks_nothing():
    m = game.new_match(8, seed=11, options={"characters": "all"})
    found, steps = play_random(m, 11)
    assert found == [], "\n".join(found[:5])
    assert steps > 20


# ---- the scanner itself ----------------------------------------------------------------------------

def scanner_for(chars, **kw):
    pos = Position(chars)
    for q in kw.get("revealed", ()):
        pos.reveal(q)
    m = pos.match()
    return m, Scanner(m)


def test_scanner_flags_planted_leaks():
    m, s = scanner_for(["Vampire", "Emi", "Allie", "Bob"], revealed=[3])
    pool = next(c for c in CHARACTERS if c not in ("Vampire", "Emi", "Allie", "Bob"))
    assert s.leaks(0, "P2 is Emi", "t")                       # an unrevealed character's name
    assert s.leaks(0, f"the pool holds {pool}", "t")          # an unused character's name
    assert s.leaks(0, "P2 (Hunter)", "t")                     # its faction tied to its player
    assert s.leaks(0, "P3 is a Neutral", "t")
    assert s.leaks(0, "P3 has 8 HP", "t")                     # its HP
    assert s.leaks(1, "P1: 13 HP", "t")
    assert s.leaks(0, "P3 uses Mother's Love", "t")            # its ability
    assert s.leaks(0, "Capriccio: your condition changes", "t")   # an unused character's ability
    assert s.leaks(2, "P1 gives you Hermit's Slap", "t")       # a hermit card p is not party to
    assert s.leaks(0, "Shadows", "t") == []                    # P1 knows a Shadow: itself
    assert s.leaks(1, "Shadows win", "t")                      # P2 knows no Shadow
    view = m.view(1)                                           # P2's view shown to P1
    assert any("'Emi'" in x for x in s.view_leaks(0, view))
    shown = json.loads(json.dumps(m.view(0)))
    players = next(v for v in shown["values"] if v["name"] == "Players")
    players["value"] = players["value"].replace("P2: hidden", "P2: hidden (10 HP)")
    assert s.view_leaks(0, shown)
    assert s.view_leaks(0, m.view(0)) == []


def test_scanner_accepts_what_may_be_known():
    m, s = scanner_for(["Vampire", "Emi", "Allie", "Bob"], revealed=[3])
    assert s.leaks(0, "P1 is Vampire (Shadow, 13 HP)", "t") == []     # one's own
    assert s.leaks(1, "P4 is Bob (Neutral, 10 HP)", "t") == []        # revealed
    assert s.leaks(1, "P4 uses Robbery", "t") == []
    assert s.leaks(0, "The game ends: P1 P2 win", "t") == []
    assert s.leaks(0, "P2 takes 2 damage (hermit card)", "t") == []
    for p in range(4):
        assert s.view_leaks(p, m.view(p)) == []
    s.predicted[0].add(2)
    assert s.leaks(0, "P3 shows you the character card: Allie", "t") == []
    assert s.leaks(1, "P3 shows you the character card: Allie", "t")


def test_scanner_follows_a_hermit_card_and_a_prediction():
    m = (Position(["Vampire", "Emi", "Allie", "Bob"]).at("cabin", "gate", "church", "woods")
         .deck("hermit", "Hermit's Prediction").turn(0, "area").match())
    s = Scanner(m)
    for text in ("draw a hermit card", "P3", "it applies"):
        actor, current = m.current_player, m.state()["current"]
        play(m, text)
        assert s.after(m, text, actor, current) == []
    assert s.predicted == [{2}, set(), set(), set()]
    assert s.knows(0) == {0, 2} and s.knows(1) == {1}
    # the giver's messages shown to another player are leaks: the card and the character
    flagged = [x for text in m.messages_for(0) for x in s.leaks(3, text, "t")]
    assert any("Allie" in x for x in flagged)


def mutated_rules(tmp_path: Path, old: str, new: str, file: str = "shadow_hunters.rules") -> Path:
    src = ROOT / "games"
    (tmp_path / "shadow_hunters").mkdir()
    for f in ("characters.rules", "cards.rules"):
        (tmp_path / "shadow_hunters" / f).write_text((src / "shadow_hunters" / f).read_text())
    (tmp_path / "shadow_hunters.rules").write_text((src / "shadow_hunters.rules").read_text())
    target = tmp_path / file
    text = target.read_text()
    assert text.count(old) == 1, old
    target.write_text(text.replace(old, new))
    return tmp_path / "shadow_hunters.rules"


@pytest.mark.parametrize("old,new,what", [
    # the hermit card's name announced to all
    ('log text(me) + " gives a hermit card to " + text(r)',
     'log text(me) + " gives " + text(h) + " to " + text(r)', "hermit card"),
    # a receiver's faction announced with "nothing happens"
    ('log text(r) + ": nothing happens"',
     'log text(r) + ": nothing happens (" + text(faction(r)) + ")"', "faction"),
    # a character named in a public message when it takes damage
    ('log text(t) + " takes " + text(n) + " damage (" + cause + ")"',
     'log text(char(t)) + " takes " + text(n) + " damage (" + cause + ")"', "character"),
])
def test_the_scan_finds_leaks_planted_in_the_rules(tmp_path, old, new, what):
    leaky = rulelang.load(str(mutated_rules(tmp_path, old, new)))
    found = []
    for seed in range(1, 6):
        m = leaky.new_match(5, seed=seed, options={"characters": "all"})
        found, _ = play_random(m, seed)
        if found:
            break
    assert found, "the scan missed a planted leak"
    assert what in found[0], found[0]


def test_a_spectator_sees_a_character_revealed_by_the_first_seat():
    """The spectator's page showed P1's card as "?" after P1 revealed it, though every seat saw it
    (a browser trial): its view is made from seat 0's, whose own zone lists its cards and no `known`."""
    from rulelang.web.present import spectator_payload
    m = game.new_match(4, seed=3)
    rng = random.Random(1)
    for _ in range(400):
        reveal = [a for a in m.interrupts(0) if a.text.endswith("reveal")] or \
                 [a for a in m.legal_actions() if m.current_player == 0 and a.text == "reveal"]
        if reveal:
            m.apply(reveal[0])
            break
        m.apply(rng.choice(m.legal_actions()))
    character = m.state()["zones"]["character"][0]
    assert len(character) == 1 and all(character[0] in m.visible_to(p) for p in range(4))
    zones = {(z["name"], z["owner"]): z for z in spectator_payload(m)["view"]["zones"]}
    assert zones[("character", 0)]["known"] == [{"id": character[0], "label": m.labels[character[0]], "revealed": True}]
    assert zones[("character", 0)]["cards"] is None
    for p in (1, 2, 3):                                   # the others, unrevealed: nothing known
        assert "known" not in zones[("character", p)] or all(
            c["id"] in m.visible_to(1) and c["id"] in m.visible_to(2) for c in zones[("character", p)]["known"])
