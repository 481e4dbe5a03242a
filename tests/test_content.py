"""YAML content files: rows become components, checked against their kind; the IR carries
the rows; the compiled-IR cache notices an edited content file."""
from __future__ import annotations

import pytest

import rulelang

RULES = """
game "Chips" {
  players 2
  enum Colour { warm, cold }
  kind Chip { name: text  v: int  colour: Colour = warm  label name }
  zone pool: pile, public
  zone hand: set per player, owner
  setup { create Chip from "chips.yaml" in pool }
  turn {
    step take {
      action take(c in pool) { move c to hand[me]  if size(pool) == 0 { finish draw }  end turn }
    }
  }
}
"""
YAML = """
- {name: red, v: 1, copies: 2}
- name: blue
  v: 2
  colour: cold
"""


@pytest.fixture()
def rules(tmp_path, monkeypatch):
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "chips.yaml").write_text(YAML, encoding="utf-8")
    path = tmp_path / "chips.rules"
    path.write_text(RULES, encoding="utf-8")
    return path


def test_each_row_makes_its_components_with_their_fields(rules):
    m = rulelang.load(str(rules)).new_match(2, seed=0)
    comps = m.state()["components"]
    assert [(c["label"], c["fields"]) for c in comps] == [
        ("red", {"name": "red", "v": 1, "colour": "warm"}),
        ("red", {"name": "red", "v": 1, "colour": "warm"}),
        ("blue", {"name": "blue", "v": 2, "colour": "cold"}),
    ]
    assert m.state()["zones"]["pool"] == [0, 1, 2]
    assert [str(a) for a in m.legal_actions()] == ["take red", "take blue"]


def test_the_ir_carries_the_rows_and_the_files_hash(rules, tmp_path):
    ir = rulelang.compile_file(str(rules))
    assert [i["path"] for i in ir["imports"]] == ["chips.yaml"]
    assert len(ir["setup"]) == 3 and {s["s"] for s in ir["setup"]} == {"create"}
    (tmp_path / "chips.yaml").unlink()                 # a compiled game no longer needs the file
    assert rulelang.Game(ir).new_match(2, seed=0).state()["zones"]["pool"] == [0, 1, 2]


def test_an_edited_content_file_is_not_read_from_the_cache(rules, tmp_path):
    assert len(rulelang.load(str(rules)).new_match(2, seed=0).state()["components"]) == 3
    (tmp_path / "chips.yaml").write_text(YAML.replace("copies: 2", "copies: 5"), encoding="utf-8")
    assert len(rulelang.load(str(rules)).new_match(2, seed=0).state()["components"]) == 6


def test_a_broken_row_is_reported_at_its_yaml_line_with_a_caret(rules, tmp_path):
    (tmp_path / "chips.yaml").write_text(YAML.replace("v: 2", "v: two"), encoding="utf-8")
    diags, sources = rulelang.lint([str(rules)])
    assert [(d.file, d.line, d.column, d.code) for d in diags] == [(str(tmp_path / "chips.yaml"), 4, 6, "E504")]
    assert diags[0].format(sources.get(diags[0].file)).splitlines()[1:] == ["      v: two", "         ^^^"]
    with pytest.raises(rulelang.RuleError):
        rulelang.load(str(rules))


def test_a_text_field_longer_than_a_text_may_be_is_refused_at_its_row(rules, tmp_path):
    """A fuzz trial: a 900 KB card name was read, and `look` printed it whole. A text field holds at
    most TEXT_LIMIT characters, as a text the rules build does."""
    from rulelang.core.limits import TEXT_LIMIT
    long = "x" * (TEXT_LIMIT + 1)
    (tmp_path / "chips.yaml").write_text(YAML.replace("name: blue", f"name: {long}"), encoding="utf-8")
    diags, _ = rulelang.lint([str(rules)])
    assert [(d.line, d.column, d.code) for d in diags] == [(3, 9, "E506")]
    assert diags[0].message == f"field `name` is {TEXT_LIMIT + 1:,} characters long, more than the limit of {TEXT_LIMIT:,} of one text"
    (tmp_path / "chips.yaml").write_text(YAML.replace("name: blue", f"name: {long[:-1]}"), encoding="utf-8")
    assert rulelang.lint([str(rules)])[0] == []


@pytest.mark.parametrize("path", ["/etc/passwd", "../chips.yaml", "chips.txt"])
def test_a_rule_file_may_read_only_yaml_beside_or_below_itself(rules, path):
    rules.write_text(RULES.replace('"chips.yaml"', f'"{path}"'), encoding="utf-8")
    diags, _ = rulelang.lint([str(rules)])
    assert [(d.code, d.line) for d in diags] == [("E501", 8)]
    assert "in the rule file's folder" in diags[0].message


@pytest.mark.parametrize("text, line, col", [
    ("- !!python/object/apply:os.system {name: a, v: 1}\n", 1, 3),
    ("- !custom {name: b, v: 2}\n", 1, 3),
    ("!!python/tuple\n- {name: a, v: 1}\n", 1, 1),
])
def test_a_tag_on_a_row_or_the_list_is_refused_as_on_a_value(rules, tmp_path, text, line, col):
    """A fuzz trial: a tag on a list or a mapping was dropped, so a shared content file with
    `!!python/object/apply:os.system {…}` linted clean and played (no code ran: the row was read
    plain); diagnostics.md (E501) says an unknown tag is not valid YAML."""
    (tmp_path / "chips.yaml").write_text(text, encoding="utf-8")
    diags, _ = rulelang.lint([str(rules)])
    assert [(d.code, d.line, d.column) for d in diags] == [("E501", line, col)]
    assert "could not determine a constructor for the tag" in diags[0].message


def test_the_plain_tags_of_a_list_and_a_mapping_are_still_taken(rules, tmp_path):
    (tmp_path / "chips.yaml").write_text("!!seq\n- !!map {name: a, v: 1}\n", encoding="utf-8")
    assert rulelang.lint([str(rules)])[0] == []


def test_an_empty_value_is_said_to_be_empty(rules, tmp_path):
    """A fuzz trial: `v:` with nothing after it said "field `v` must be int, not " (nothing shown)."""
    (tmp_path / "chips.yaml").write_text(YAML.replace("v: 2", "v:"), encoding="utf-8")
    diags, _ = rulelang.lint([str(rules)])
    assert [d.message for d in diags] == ["field `v` must be int, not nothing (an empty value)"]


def test_a_list_field_is_named_as_the_rule_file_writes_it(rules, tmp_path):
    """A new author's gem costs: E504 said the field "is a list:int", the IR's spelling."""
    rules.write_text(RULES.replace("v: int ", "v: int  cost: list[int] = [] "), encoding="utf-8")
    diags, _ = rulelang.lint([str(rules)])
    (e504,) = [d for d in diags if d.code == "E504"]
    assert "field `cost` of kind `Chip` is a list[int], which a YAML file cannot give" in e504.message
    assert "list:" not in e504.message


def test_a_number_in_base_60_is_text_not_a_number(rules, tmp_path):
    """A fuzz trial: YAML 1.1 reads `190:20:30` as 685230, silently; a time typed `1:30` as 90. It is
    text here: a name keeps it, a number field refuses it where it stands."""
    (tmp_path / "chips.yaml").write_text(YAML.replace("name: blue", "name: 1:30"), encoding="utf-8")
    m = rulelang.load(str(rules)).new_match(2, seed=0)
    assert "1:30" in [c["fields"]["name"] for c in m.state()["components"]]
    (tmp_path / "chips.yaml").write_text(YAML.replace("v: 2", "v: 190:20:30"), encoding="utf-8")
    diags, _ = rulelang.lint([str(rules)])
    assert [(d.line, d.code) for d in diags if d.severity == "error"] == [(4, "E504")]


def test_a_long_tag_is_said_short_and_a_byte_that_is_no_utf8_at_its_own_line(rules, tmp_path):
    """An attacker's trial: a 500,000-character tag was said whole (a 500 KB line), and a byte that is
    not UTF-8 was "offset 9" at the rule file's `create … from` line."""
    (tmp_path / "chips.yaml").write_text("- !" + "a" * 500_000 + " {name: a, v: 1}\n", encoding="utf-8")
    diags, _ = rulelang.lint([str(rules)])
    assert [d.code for d in diags] == ["E501"] and len(diags[0].message) < 400 and diags[0].message.endswith("…")
    (tmp_path / "chips.yaml").write_bytes(b"- {name: a, v: 1}\n- {name: \xff\xfe, v: 1}\n")
    diags, _ = rulelang.lint([str(rules)])
    assert [(d.code, d.line, d.column) for d in diags] == [("E501", 2, 10)]
    assert d.span.file.endswith("chips.yaml") if (d := diags[0]).span else False
    assert diags[0].message.endswith("it is not UTF-8 text (byte 0xff)")
