"""What a fuzz trial of stop 47 found: rule files that lint clean (or nearly) and ended in an
"internal error, please report" instead of a rule error with file and line."""
from __future__ import annotations

import pytest

import rulelang
from rulelang.play.bots import make_bot


def build(body: str, name: str = "t.rules") -> rulelang.Game:
    return rulelang.Game(rulelang.compile_source('game "T" {\n  players 2\n' + body + "\n}\n", name))


def test_a_step_played_by_no_player_is_a_rule_error_with_its_line():
    game = build("  def last_seat: player = player_count\n"
                 "  turn { step s by last_seat { action go { end turn } action win { finish win for me } } }")
    with pytest.raises(rulelang.RuleRuntimeError) as err:
        game.new_match(2, seed=1)
    assert str(err.value) == "t.rules:4: step `s` is played `by` a player, not by 2"


def test_distinct_takes_lists_of_lists():
    game = build("  var pairs: list[list[int]] = []\n"
                 "  setup { append [1, 2] to pairs  append [3, 4] to pairs  append [1, 2] to pairs }\n"
                 "  show \"Pairs\" = size(distinct(pairs))\n"
                 "  when size(distinct(pairs)) < size(pairs) { pairs = distinct(pairs) }\n"
                 "  turn { step s { action go { end turn } action win { finish win for me } } }")
    m = game.new_match(2, seed=1)
    assert m.V[game.var_slot["pairs"]] == [[1, 2], [3, 4]]
    assert [v["value"] for v in m.view(0)["values"] if v["name"] == "Pairs"] == [2]


def test_a_die_of_no_sides_is_a_rule_error_where_nothing_records_the_draw_too():
    game = build("  var sides: int = 0\n"
                 "  show \"A throw\" = roll(sides)\n"
                 "  turn { step s { action go { sides += 1  end turn } action win { finish win for me } } }")
    m = game.new_match(2, seed=1)
    shown = next(v for v in m.view(0)["values"] if v["name"] == "A throw")
    assert shown["value"] is None and "a die must have at least one side, not 0" in shown["error"]
    m.apply("go")
    assert [v["value"] for v in m.view(0)["values"] if v["name"] == "A throw"] == [1]


def test_the_search_bot_plays_on_where_an_action_fails_by_the_rules():
    """ismcts divided by zero: an action the rules fail on made a node with no visit."""
    game = build("  var n: int = 0\n"
                 "  turn { step s {\n"
                 "    action go { n = 10 / n  end turn }\n"
                 "    action win { finish win for me }\n"
                 "  } }")
    bot = make_bot("ismcts:50", 1)
    m = game.new_match(2, seed=1)
    assert str(bot.choose(m)) == "win"


def test_a_compiled_game_edited_by_hand_is_refused_or_played_without_an_internal_error():
    """A family indexed by `null` (a create into `reserve[null]` put a component into the list of
    lists itself) is refused when the game is read; a `log` of a number (the compiler makes a
    text of it) is logged as its text."""
    source = ('game "T" {\n  players 2\n  var n: int = 0\n  zone hand: pile per player, public\n'
              '  turn { step s { action go { n += 1  log text(n)  end turn } action win { finish win for me } } }\n}\n')
    ir = rulelang.compile_source(source, "t.rules")
    body = ir["steps"][0]["actions"][0]["body"]
    log = next(s for s in body if s["s"] == "log")
    log["v"] = {"k": "var", "n": "n"}                       # a number, not a text
    m = rulelang.Game(ir, compiled=False).new_match(2, seed=1)
    m.apply("go")
    assert m.message_log() == [{"to": None, "text": "1"}]
    bad = rulelang.compile_source(source, "t.rules")
    bad["setup"] = [{"s": "move", "what": {"k": "builtin", "n": "players"}, "to": {"k": "zone", "n": "hand", "i": {"k": "lit", "v": None}},
                     "pos": "", "line": 1}]
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.Game(bad)
    assert "`hand` is one per player: a member is named by a player, a cell or a value, not null" in str(err.value)


def test_a_choice_by_no_player_and_a_turn_to_no_player_are_rule_errors_with_their_lines():
    for action, said in (("ask { choose x in [1, 2] by last_seat { end turn } }", "a choice is made `by` a player, not by 2"),
                         ("ask { end turn to last_seat }", "`end turn to` a player, not to 2")):
        game = build("  def last_seat: player = player_count\n"
                     f"  turn {{ step s {{ action {action}  action win {{ finish win for me }} }} }}")
        m = game.new_match(2, seed=1)
        with pytest.raises(rulelang.RuleRuntimeError) as err:
            m.apply("ask")
        assert str(err.value).startswith(f"t.rules:4: {said}"), str(err.value)
        assert [a.text for a in m.legal_actions()] == ["ask", "win"]          # (nothing changed)


def test_a_prefix_typed_among_many_actions_is_found_ambiguous_in_linear_time(monkeypatch):
    """`take` among 99,999 `take N` hung the terminal for minutes: each filter asked `action in
    matches` of a list (n² comparisons of actions). Counted, not timed."""
    import io
    from rulelang.engine.codegen.runtime_actions import Action
    from rulelang.play.repl import run_repl
    game = build("  turn { step s { action take(n in 1..3000) { end turn }  action win { finish win for me } } }")
    compared = [0]
    plain = Action.__eq__

    def counted(self, other):
        compared[0] += 1
        return plain(self, other)
    monkeypatch.setattr(Action, "__eq__", counted)
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("take\nquit\n"), out, "t.rules", screen=(100, 40))
    said = " ".join(out.getvalue().split())
    assert "ambiguous: 'take' could be take 1, take 2" in said and "and 2992 more" in said
    assert compared[0] < 30_000, compared[0]


def test_a_lone_surrogate_in_a_content_file_is_refused_at_its_line(tmp_path):
    (tmp_path / "c.yaml").write_text('- v: 1\n  t: "A\\ud800B"\n', encoding="utf-8")
    (tmp_path / "t.rules").write_text(
        'game "T" {\n  players 2\n  kind C { v: int  t: text = "x"  label t }\n  zone d: pile\n'
        '  setup { create C from "c.yaml" in d }\n'
        '  turn { step s { action win { finish win for me } } }\n}\n', encoding="utf-8")
    diags, _ = rulelang.lint([str(tmp_path / "t.rules")])
    assert [(d.code, d.span.line, d.span.column) for d in diags if d.severity == "error"] == [("E504", 2, 6)], diags
    assert "lone surrogate" in diags[0].message


# ---- stop 57: values the rules could keep that no save may hold (then `undo` ended the session) ----

K = "3000000000000000000"


@pytest.mark.parametrize("stmt", [f"n = n + {K}", f"t[me] = t[me] + {K}", f"n = sum([n, {K}])",
                                  f"n = max([n + {K}, 0])", "n = -4611686018427387904 - 1"])
def test_a_number_past_the_integer_limit_is_a_rule_error_however_it_is_assigned(stmt):
    game = build("  var n: int = 0\n  var t: int = 0 per player\n"
                 "  turn { step s { action go { " + stmt + "  end turn } action stop { finish draw } } }")
    m = game.new_match(2, seed=1)
    before = m.state()
    with pytest.raises(rulelang.RuleRuntimeError, match="integer limit"):
        for _ in range(3):                                 # (P1, P2, P1 again: `t[me]` twice too)
            m.apply("go")
    rulelang.Match.from_state(game, m.state())             # what is kept can be restored
    assert before["vars"]["n"] == 0


@pytest.mark.parametrize("stmt, error", [
    ("finish win for leader", "`finish … for` needs a player or a list of players, not none"),
    ("finish lose for 9", "`finish … for` needs a player or a list of players, not 9"),
    ("reveal top(deck) to me + 2", "`reveal … to` needs a player or a list of players, not 2"),
    ('log "x" to me + 2', "`log … to` needs a player or a list of players, not 2"),
    ("leader = me + 2", "a player variable holds a player or none, not 2"),
])
def test_a_value_that_is_no_seat_is_a_rule_error_where_a_player_is_due(stmt, error):
    """`finish win for leader` with leader none made everyone win; the others made positions
    `from_state` refused."""
    game = build("  kind C { v: int  label text(v) }\n  zone deck: pile, hidden\n  var leader: player = none\n"
                 "  setup { create C(v: 1) in deck }\n"
                 "  turn { step s { action go { " + stmt + "  end turn } action stop { finish draw } } }")
    m = game.new_match(2, seed=1)
    with pytest.raises(rulelang.RuleRuntimeError) as err:
        m.apply("go")
    assert str(err.value).endswith(error) and m.outcome is None


def test_a_negative_index_is_a_rule_error_not_the_last_element():
    game = build("  var n: int = 0\n  var i: int = 0\n"
                 "  turn { step s { action go { n = [10, 20, 30][i - 1]  end turn } action stop { finish draw } } }")
    m = game.new_match(2, seed=1)
    with pytest.raises(rulelang.RuleRuntimeError, match="before its start"):
        m.apply("go")
    assert m.state()["vars"]["n"] == 0


def test_undo_that_cannot_restore_the_position_says_so_and_the_game_goes_on(monkeypatch):
    """`undo` restores a position through `from_state`; one it refused ended `rulelang play` (exit 1,
    the game lost). Now undo is refused and the game goes on."""
    import io
    from rulelang.core.errors import StateError
    from rulelang.play.repl import run_repl
    game = build("  var n: int = 0\n  show \"n\" = text(n)\n"
                 "  turn { step s { action go { n += 1 } action stop { finish draw } } }")

    def refused(cls, g, data):
        raise StateError("variable `n` holds 9, which is not a number")
    monkeypatch.setattr(rulelang.Match, "from_state", classmethod(refused))
    out = io.StringIO()
    code = run_repl(game, 2, 1, {}, {}, io.StringIO("go\nundo\ngo\nstop\n"), out, "t.rules", screen=(100, 40))
    text = out.getvalue()
    assert "cannot undo: variable `n` holds 9, which is not a number" in text
    assert "Game over" in text and code == 0


@pytest.mark.parametrize("decl", ["event w()", "window w()", "hook w()"])
@pytest.mark.parametrize("use", ["action a require w { finish draw }", "action a { log text(w)  finish draw }",
                                 "action a { finish win for w }"])
@pytest.mark.parametrize("top", ["", "estimate w", 'show "x" = w', "when w { }"])
def test_an_event_window_or_hook_used_as_a_value_is_an_error_at_its_name(decl, use, top):
    """A fuzz trial: `asleep[after_scores]` (a window) linted clean, then every command failed with
    "internal error: unresolved name" (an AssertionError from `rulelang.load`)."""
    if top:                                     # (the name used at the top level instead)
        use = "action a { finish draw }"
    source = f'game "E" {{\n  players 2\n  {decl}\n  {top}\n  turn {{ step s {{ {use} }} }}\n}}\n'
    with pytest.raises(rulelang.RuleError, match=r"E201.*`w` is an? (event|window|hook) and has no value here"):
        rulelang.compile_source(source, "e.rules")


MODIFY = '''game "M" {
  players 2
  kind K { v: int }
  zone z: set, public, play
  def d(x: int) = DEF
  card K "C" { v: 1
    modify d(x) += ADDED
  }
  setup { create cards K in z }
  turn { step st { action stop { TIMED log text(d(5))  finish draw } } }
}
'''


@pytest.mark.parametrize("body,added,timed,said", [
    ("x", '"!"', "", "the amount added must be int, not text"),
    ('"x"', "1", "", "`modify` adds to a def of numbers; `d` gives text"),
    ("top(z)", "1", "", "`modify` adds to a def of numbers; `d` gives component"),
    ('"x"', "1", "modify d(1) += 1 until turn_end", "`modify` adds to a def of numbers; `d` gives text")])
def test_a_cards_modifier_adds_a_number_to_a_def_of_numbers(body, added, timed, said):
    """A fuzz trial: a card's `modify d(x) += "!"` linted clean and the engine faulted in play
    (`int += str`); `+= 1` to a def of texts was a rule error quoting Python."""
    source = MODIFY.replace("DEF", body).replace("ADDED", added).replace("TIMED", timed)
    if timed:
        source = source.replace('    modify d(x) += 1\n', "")
    with pytest.raises(rulelang.RuleError, match="E201.*" + __import__("re").escape(said)):
        rulelang.compile_source(source, "m.rules")


def test_next_of_none_in_a_game_that_eliminates_is_a_rule_error_in_words():
    """A grammar-aware fuzz trial: `next(none)` was a rule error, but in a game that may eliminate
    players "internal error: ValueError: None is not in list"."""
    game = rulelang.Game(rulelang.compile_source('game "F3" { players 2  var who: player = none\n'
                                                 '  turn { step s { action a { end turn to next(who) }\n'
                                                 '                  action b { eliminate me  finish draw } } }\n'
                                                 '  turn limit 4 { finish draw } }', "f3.rules"))
    m = game.new_match(2, seed=1)
    with pytest.raises(rulelang.RuleRuntimeError) as raised:
        m.apply("a")
    assert "`next` needs a player, not none" in str(raised.value)
    assert m.log == []


def test_a_list_written_out_read_past_its_end_is_a_rule_error():
    """A grammar-aware fuzz trial: `n = [1, 2][k]` with k 3 was "internal error: IndexError"."""
    game = rulelang.Game(rulelang.compile_source('game "F1" { players 1  var n: int = 0  var k: int = 3\n'
                                                 '  turn { step s { action a { n = [1, 2][k]  finish draw } } } }',
                                                 "f1.rules"))
    m = game.new_match(1, seed=1)
    with pytest.raises(rulelang.RuleRuntimeError) as raised:
        m.apply("a")
    assert "read past its end (`xs[i]` with i 3, 2 long)" in str(raised.value)


@pytest.mark.parametrize("action, words", [
    ("a", "`players_from` needs a player, not none"), ("b", "only a player can be eliminated, not none"),
    ("c", "a turn order names every player once, not P2, P2"), ("d", "a die must have at least one side, not none"),
    ("e", "step `t` is played `by` a player, not by none")])
def test_rule_errors_say_none_and_seats_as_players_read_them(action, words):
    """A grammar-aware fuzz trial: `not None`, `not [1, 1]` (seats counted from 0) in rule errors."""
    game = rulelang.Game(rulelang.compile_source("""game "F2" {
  players 2
  var who: player = none
  turn { step s {
    action a { readmit(players_from(who))  end turn }
    action b { eliminate who  end turn }
    action c { turn_order = [players[1], players[1]]  end turn }
    action d { let n = roll(who)  end turn }
    action e { goto t }
  } }
  step t by who { action back { end turn } }
  turn limit 4 { finish draw }
}""", "f2.rules"))
    m = game.new_match(2, seed=1)
    with pytest.raises(rulelang.RuleRuntimeError) as raised:
        m.apply(action)
    assert words in str(raised.value)


@pytest.mark.parametrize("where", ["on turn_start { may by last(players) { ; } }",
                                   "on turn_end { may by last(players) { ; } }"])
def test_an_interrupt_ending_the_turn_while_the_flow_asks_ends_that_question_and_the_turn(where):
    """A grammar-aware fuzz trial: taken while a question of `on turn_start` (or `enter`, `on
    turn_end`, a `when`) waited, an `anytime` action doing `end turn` escaped `apply` as the
    engine's own signal (a traceback at the terminal). It ends the waiting effect and the turn,
    as it does in an action's body; the state is saved and restored exactly."""
    game = rulelang.Game(rulelang.compile_source(f"""game "F6" {{
  players 2
  turn {{ step s {{ action go {{ end turn }} }} }}
  {where}
  anytime action skip {{ end turn }}
  turn limit 6 {{ finish draw }}
}}""", "f6.rules"))
    m = game.new_match(2, seed=1)
    while m.question is None or not (m.interrupts(0) or m.interrupts(1)):
        m.apply(next(a for a in m.legal_actions() if str(a) in ("go", "yes")))
    asked_turn, asked = m.view(0)["turn"], m.question["chooser"]
    m.apply(m.interrupts(asked)[0])
    assert m.log[-1] == f"P{asked + 1}: skip"
    if "turn_start" in where:                   # (at a turn's end, ending it runs `on turn_end` again)
        assert m.view(0)["turn"] > asked_turn
    again = rulelang.Match.from_state(game, m.state())
    assert again.state() == m.state()


def _chain(n: int, cycle: bool) -> str:
    names = [f"d{i}" for i in range(n)]
    defs = "\n".join(f"  def {a} = {b} + 1" for a, b in zip(names, names[1:] + [names[0] if cycle else "1"]))
    return ('game "C" {\n  players 2\n  var sc: int = 0 per player\n' + defs.replace("+ 1 + 1", "+ 1") +
            '\n  turn { step s { action add { sc[me] += 1  if sc[me] > 3 { finish win for me "won" }  end turn } } }\n}\n')


def test_w261_finds_the_defs_on_a_cycle_of_thousands_once_each():
    """A fuzz trial: W261 searched a path from every def, copying it at each step — a chain of 3,000
    defs took 30 s to lint (6,000: 187 s), a rule file being allowed ~25,000. The defs on a cycle are
    found once (strongly connected components), each said once, with a message of one line."""
    def lint_source(text, name):
        return rulelang.check_source(text, name)[1]
    clean = [d for d in lint_source(_chain(1000, cycle=False), "c.rules") if d.code == "W261"]
    assert clean == []
    found = [d for d in lint_source(_chain(1000, cycle=True), "c.rules") if d.code == "W261"]
    assert len(found) == 1000 and len({d.line for d in found}) == 1000
    assert found[0].message.startswith("`d0` calls itself through `d1` and 998 other defs whatever")
    three = [d.message.split(" whatever")[0] for d in lint_source(_chain(3, cycle=True), "c.rules") if d.code == "W261"]
    assert three == ["`d0` calls itself through `d1` and 1 other def", "`d1` calls itself through `d2` and 1 other def",
                     "`d2` calls itself through `d0` and 1 other def"]


def test_the_api_refuses_odd_inputs_in_one_printable_line():
    """An API fuzz trial: a text with a line break, 100,000 characters or a lone surrogate came back
    whole in the refusal; `seat=False` and `seat=0.0` were taken for P1; options given as a text
    were a traceback; a generator word of a save past 32 bits, or `true`, was cut to another word
    and the match restored drew other chance."""
    from pathlib import Path
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "valgard.rules"))
    m = game.new_match(2, seed=1)
    before = m.state()
    for bad in ("play\nx", "x" * 100_000, "\ud800"):
        with pytest.raises(rulelang.IllegalAction) as got:
            m.apply(bad)
        said = str(got.value)
        assert "\n" not in said and len(said) < 300 and said.encode("utf-8")
    for seat in (False, 0.0):
        with pytest.raises(rulelang.IllegalAction, match="a seat is a number"):
            m.apply(m.legal_actions()[0].text, seat=seat)
    assert m.state() == before
    with pytest.raises(ValueError, match="options are a mapping"):
        game.new_match(2, 0, "hardcore")
    for word in (2 ** 40, True, -1):
        state = m.state()
        state["rng"][1][3] = word
        with pytest.raises(rulelang.StateError, match="random generator state"):
            rulelang.Match.from_state(game, state)
