"""docs/ci/: the GitHub Actions workflow and the GitLab CI file run their very commands here, shards included.

Each file is parsed with PyYAML and its jobs are played in order by a small emulator: a fresh copy of the
engine's repository per job (what a checkout gives a runner), the matrix / ``parallel`` variables
substituted, artifacts handed from the shard jobs to the merge job through a folder. Only the install
lines (``pip install``) are not run: no network in tests; ``tcg-oracle`` on PATH is a shim running
``sys.executable -m oracle``. The engine under test is ``ENGINE`` overridden with tests/engines/versioned_engine.py.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
CI = REPO / "docs" / "ci"
ENGINES = REPO / "tests" / "engines"
sys.path.insert(0, str(ENGINES))
import versioned_engine as ve

TIMING = ("started", "finished", "duration")


@dataclass
class Fleet:
    """The runners: where jobs run, the artifacts they hand on, the install lines left out."""

    root: Path
    repo: Path
    env: dict[str, str]
    artifacts: dict[str, list[Path]] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)

    def checkout(self, job: str) -> Path:
        where = self.root / "runners" / job
        shutil.copytree(self.repo, where)
        return where

    def sh(self, script: str, cwd: Path, extra: dict[str, str]) -> int:
        """One shell step (bash -eo pipefail, as both CIs run them); install lines are left out."""
        kept = []
        for line in script.strip().splitlines():
            if re.match(r"\s*(python -m )?pip install\b", line):
                self.skipped.append(line.strip())
            else:
                kept.append(line)
        if not kept:
            return 0
        body = "\n".join(kept)
        assert "${{" not in body, f"an expression left unsubstituted: {body}"
        self.ran.extend(kept)
        proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", body], cwd=cwd,
                              env={**self.env, **extra}, capture_output=True, text=True, timeout=600)
        (cwd / "step.log").write_text(proc.stdout + proc.stderr, encoding="utf-8")
        return proc.returncode


def _fleet(tmp_path: Path, engine: str) -> Fleet:
    """An engine's repository (its committed baseline, recorded from version 2.0 of the engine) and the
    environment a runner has once tcg-oracle is installed."""
    shim = tmp_path / "bin" / "tcg-oracle"
    shim.parent.mkdir(parents=True)
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m oracle "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    env = {**os.environ, "PATH": f"{shim.parent}{os.pathsep}{os.environ['PATH']}",
           "PYTHONPATH": os.pathsep.join([str(REPO), str(ENGINES)])}
    env.pop("CI", None)
    repo = tmp_path / "engine-repo"
    (repo / "conformance").mkdir(parents=True)
    proc = subprocess.run([sys.executable, "-m", "oracle", "run", "--engine", "py:versioned_engine:v2", "--baseline",
                           "conformance/baseline.yaml", "--update-baseline", "--report", "", "--results",
                           str(tmp_path / "baseline-run.json"), "--quiet"],
                          cwd=repo, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return Fleet(tmp_path, repo, {**env, "ENGINE": engine})


def _store(fleet: Fleet, name: str, cwd: Path, patterns: list[str]) -> None:
    got = [p for pat in patterns for p in sorted(cwd.glob(pat)) if p.is_file()]
    fleet.artifacts.setdefault(name, []).extend(got)


def _restore(fleet: Fleet, names: list[str], into: Path) -> None:
    into.mkdir(parents=True, exist_ok=True)
    for name in names:
        for p in fleet.artifacts[name]:
            shutil.copy(p, into / p.name)


def play_github(fleet: Fleet, workflow: dict) -> dict[str, int]:
    """The workflow's jobs in order; returns each job's exit status (0 or the failing step's)."""
    variables = {k: str(v) for k, v in (workflow.get("env") or {}).items() if k != "ENGINE"}
    outcome: dict[str, int] = {}
    for job_name, job in workflow["jobs"].items():
        values = (job.get("strategy") or {}).get("matrix", {}).get("shard") or [None]
        for value in values:
            cwd = fleet.checkout(f"gh-{job_name}-{value}")
            status = 0
            for step in job["steps"]:
                if status and "always()" not in str(step.get("if", "")):
                    continue
                text = json.dumps(step)
                text = text.replace("${{ matrix.shard }}", str(value)).replace(
                    "${{ strategy.job-total }}", str(len(values)))
                step = json.loads(text)
                uses = step.get("uses", "")
                if uses.startswith(("actions/checkout@", "actions/setup-python@")):
                    continue  # the copy made above; the interpreter running this test
                if uses.startswith("actions/upload-artifact@"):
                    _store(fleet, step["with"]["name"], cwd, step["with"]["path"].split())
                elif uses.startswith("actions/download-artifact@"):
                    names = [n for n in fleet.artifacts if fnmatch.fnmatch(n, step["with"]["pattern"])]
                    assert step["with"].get("merge-multiple") and names
                    _restore(fleet, names, cwd / step["with"]["path"])
                elif "run" in step:
                    status = fleet.sh(step["run"], cwd, variables) or status
                else:
                    raise AssertionError(f"a step the emulator does not know: {step}")
            outcome[f"{job_name}-{value}" if value is not None else job_name] = status
    return outcome


def play_gitlab(fleet: Fleet, pipeline: dict) -> dict[str, int]:
    variables = {k: str(v) for k, v in (pipeline.get("variables") or {}).items() if k != "ENGINE"}
    default = pipeline.get("default") or {}
    jobs = {k: v for k, v in pipeline.items() if isinstance(v, dict) and "script" in v}
    outcome: dict[str, int] = {}
    for stage in pipeline["stages"]:
        for job_name, job in jobs.items():
            if job["stage"] != stage:
                continue
            total = int(job.get("parallel", 1))
            for index in range(1, total + 1):
                cwd = fleet.checkout(f"gl-{job_name}-{index}")
                needs = [n["job"] if isinstance(n, dict) else n for n in job.get("needs", [])]
                _restore(fleet, [n for n in needs if n in fleet.artifacts], cwd)
                node = {"CI_NODE_INDEX": str(index), "CI_NODE_TOTAL": str(total)} if "parallel" in job else {}
                before = "\n".join(job.get("before_script", default.get("before_script", [])))
                status = fleet.sh(before, cwd, {**variables, **node})
                if not status:
                    status = fleet.sh("\n".join(job["script"]), cwd, {**variables, **node})
                art = job.get("artifacts") or {}
                if not status or art.get("when") == "always":
                    _store(fleet, job_name, cwd, art.get("paths", []))
                outcome[f"{job_name}-{index}" if "parallel" in job else job_name] = status
    return outcome


def _strip(obj):
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k not in TIMING}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def _whole_run(fleet: Fleet) -> dict:
    """One run of the whole suite, as a shard runs but without --shard."""
    out = fleet.root / "whole.json"
    proc = subprocess.run(["tcg-oracle", "run", "--engine", fleet.env["ENGINE"], "--baseline",
                           "conformance/baseline.yaml", "--results", str(out), "--report", ""],
                          cwd=fleet.repo, env=fleet.env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(out.read_text(encoding="utf-8"))


CI_FILES = {"github": ("github-actions.yml", play_github, "gh-merge-None"),
            "gitlab": ("gitlab-ci.yml", play_gitlab, "gl-merge-1")}


@pytest.mark.parametrize("ci", sorted(CI_FILES))
def test_the_ci_file_runs_shards_merges_and_gates(ci, tmp_path):
    name, play, merge_dir = CI_FILES[ci]
    doc = yaml.safe_load((CI / name).read_text(encoding="utf-8"))
    fleet = _fleet(tmp_path, "py:versioned_engine:v2")  # the baseline's version: a known failure, no regression
    outcome = play(fleet, doc)
    assert set(outcome.values()) == {0}, outcome
    assert len([k for k in outcome if k.startswith("shard")]) == 4
    assert fleet.skipped and all("pip install" in line for line in fleet.skipped)
    assert any(line.lstrip().startswith("tcg-oracle run") and "--shard" in line for line in fleet.ran)

    merged_dir = tmp_path / "runners" / merge_dir
    merged = json.loads((merged_dir / "results.json").read_text(encoding="utf-8"))
    assert _strip(merged) == _strip(_whole_run(fleet))
    statuses = {c["id"]: c["status"] for c in merged["cases"]}
    assert statuses[ve.FIRST_MISREAD] == "fail" and statuses[ve.SECOND_MISREAD] == "pass"
    junit = ET.parse(merged_dir / "junit.xml").getroot()
    assert int(junit.get("tests") or sum(int(s.get("tests")) for s in junit.iter("testsuite"))) == len(statuses)
    report = (merged_dir / "report.html").read_text(encoding="utf-8")
    assert report.startswith("<!doctype html>") and 'id="regressions"' in report
    assert "Every status is as the baseline expects." in report
    uploaded = {p.name for p in fleet.artifacts["conformance-report" if ci == "github" else "merge"]}
    assert uploaded == {"report.html", "junit.xml", "results.json"}


@pytest.mark.parametrize("ci", sorted(CI_FILES))
def test_a_regression_fails_the_gate_and_the_report_still_comes(ci, tmp_path):
    name, play, merge_dir = CI_FILES[ci]
    doc = yaml.safe_load((CI / name).read_text(encoding="utf-8"))
    fleet = _fleet(tmp_path, "py:versioned_engine:v3")  # one more misreading than the baseline knows
    outcome = play(fleet, doc)
    merge = outcome.pop("merge")
    assert merge == 1
    assert sorted(outcome.values()) == [0, 0, 0, 1]  # the shard holding the new failure, and no other
    merged_dir = tmp_path / "runners" / merge_dir
    assert f"REGRESSION {ve.SECOND_MISREAD}: fail (baseline: pass)" in (merged_dir / "step.log").read_text()
    report = (merged_dir / "report.html").read_text(encoding="utf-8")
    assert ve.SECOND_MISREAD in report[report.index('id="regressions"'):report.index('id="coverage"')]
