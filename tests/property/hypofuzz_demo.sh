#!/bin/sh
# HypoFuzz runs the differential test against a test engine with one misreading (py:misreading_engine:make)
# on two processes until it finds the failure, writing it to a shared example database; then the project's
# own pytest (its own Hypothesis, profile `replay`: it generates nothing) fails on that failure alone.
#
#   tests/property/hypofuzz_demo.sh            # exit 0 when both halves did what they should
#
# HYPOFUZZ_VENV: a venv with hypofuzz (made here when missing: `pip install -e .[test] hypofuzz
# 'hypothesis<6.149'`: HypoFuzz 25.11.1, the newest, crashes while shrinking under hypothesis 6.170 -- the
# unshrunk failure is saved first, so this demo passes there too, with tracebacks in the log; see
# docs/fuzzing.md). PYTHON: the project's Python (default: python). TCG_ORACLE_HYPOTHESIS_DB: the database.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
VENV=${HYPOFUZZ_VENV:-/tmp/venv-hypofuzz}
PYTHON=${PYTHON:-python}
DB=${TCG_ORACLE_HYPOTHESIS_DB:-$(mktemp -d)/hypothesis-db}
if [ ! -x "$VENV/bin/hypothesis" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q -e "$ROOT[test]" hypofuzz 'hypothesis<6.149'
fi
cd "$ROOT"
export TCG_ORACLE_FUZZ_ENGINE=py:misreading_engine:make TCG_ORACLE_HYPOTHESIS_DB="$DB" PYTHONPATH=tests/property
unset CI
echo "== HypoFuzz ($("$VENV/bin/python" -c 'import hypofuzz, hypothesis; print("hypofuzz", hypofuzz.__version__, "hypothesis", hypothesis.__version__)')), 2 processes, database $DB"
set +e
timeout 600 "$VENV/bin/hypothesis" fuzz -n 2 --no-dashboard -- tests/property/test_differential.py -k ijinden \
    > "$DB.hypofuzz.log" 2>&1
found=$?
set -e
grep -q "Found a failing input for every test" "$DB.hypofuzz.log" || { tail -30 "$DB.hypofuzz.log"; echo "HypoFuzz found nothing (exit $found)"; exit 1; }
echo "HypoFuzz: found a failing input (exit $found); the database holds $(find "$DB" -type f | wc -l) entries"
# a ConnectionResetError as the workers shut down is harmless; any other error is a crash
if grep -E "^[A-Za-z]+Error" "$DB.hypofuzz.log" | grep -qv ConnectionResetError; then
    echo "HypoFuzz's workers crashed (log: $DB.hypofuzz.log):"
    grep -E "^[A-Za-z]+Error" "$DB.hypofuzz.log" | grep -v ConnectionResetError | sort | uniq -c
fi
echo "== the project's pytest replays it (profile replay: nothing generated)"
set +e
TCG_ORACLE_HYPOTHESIS_PROFILE=replay "$PYTHON" -m pytest -p no:cacheprovider -n 0 -q \
    tests/property/test_differential.py -k ijinden > "$DB.replay.log" 2>&1
replayed=$?
set -e
if [ "$replayed" -eq 1 ] && grep -q "AssertionError: final cards" "$DB.replay.log"; then
    grep -m1 "AssertionError: final cards" "$DB.replay.log"
    echo "replayed: the failure HypoFuzz found fails the project's test too"
else
    tail -30 "$DB.replay.log"; echo "the replay did not fail as it should (exit $replayed)"; exit 1
fi
