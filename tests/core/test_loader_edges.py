"""Loader edges: a file named twice on the command line, and locations inside a moment's short form."""

from __future__ import annotations

from test_loader import GOOD, load, root, write  # noqa: F401 - root is a fixture

from oracle.loader import load_suite


def test_a_file_named_twice_is_loaded_once(root):  # noqa: F811
    p = write(root, "good.yaml", GOOD)
    for paths in ([p, p], [root / "ijinden", p], [root / "ijinden", root / "ijinden" / "." / "good.yaml"]):
        suite = load_suite(paths, root=root)
        assert not suite.errors, [str(e) for e in suite.errors]
        assert [lc.case.id for lc in suite.cases] == ["t.good"]


def test_an_invalid_event_inside_a_moment_is_located_at_the_event(root):  # noqa: F811
    write(root, "bad.yaml", GOOD.replace("    - {became_attacker: a}\n",
                                         "    - - {became_attacker: a}\n      - [oops]\n"))
    suite = load(root)
    assert len(suite.errors) == 1, [str(e) for e in suite.errors]
    err = suite.errors[0]
    lines = GOOD.replace("    - {became_attacker: a}\n", "    - - {became_attacker: a}\n      - [oops]\n").splitlines()
    assert lines[err.line - 1].strip() == "- [oops]", err.line
    assert err.field == "expect.events[0][1]"  # as the semantic checks name an event of a moment


def test_a_single_faced_card_set_up_back_face_up_is_a_located_error(tmp_path, capsys):
    """``face: back`` on a card with no back face was accepted and played as its front; now ``validate`` names the field."""
    from oracle.cli import main

    p = tmp_path / "face.yaml"
    p.write_text("""\
- id: mtg.t.face
  game: mtg
  rulesets: [cr-20231117]
  title: t
  source: {kind: generated, seed: 1, command: x, date: "2026-12-01"}
  rules: [mtg:310.7]
  setup:
    active: alice
    players:
      alice: {battlefield: [{id: x, card: Oracle Bear, face: back}]}
      bob: {}
  expect:
    winner: null
""", encoding="utf-8")
    assert main(["validate", str(p)]) == 2
    err = capsys.readouterr()
    out = err.out + err.err
    assert f"{p}:10" in out and "setup.players.alice.battlefield[0].face" in out and "'Oracle Bear' has no back face" in out


def test_a_key_spelled_as_a_yaml_1_1_boolean_is_the_word():
    """oracle.yamlfile: a plain mapping key spelled yes/no/on/off (any case) is that word, as YAML 1.2 reads it;
    true/false keys and every value keep their boolean reading; a quoted key was a string already."""
    from oracle.yamlfile import compose

    data, _ = compose("a: {on: t, Off: 1, YES: 2, 'no': 3, optional: yes, done: off}\nb: [{true: 1}]\n"
                      "c: &x {on: 1}\nd: *x\n")
    assert data["a"] == {"on": "t", "Off": 1, "YES": 2, "no": 3, "optional": True, "done": False}
    assert data["b"] == [{True: 1}]
    assert data["c"] == data["d"] == {"on": 1}
