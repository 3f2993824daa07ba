"""A JSON-lines engine for the harness's toy game, written against the protocol only (no ``oracle``
import), with switches that break it on purpose for the robustness tests:

  --hang ID       never answer case ID (writes $TOY_MARKER first, when set)
  --crash ID      exit with code 7 and a message on stderr while running case ID
  --garbage ID    answer case ID with a line that is not JSON
  --wrong-id ID   answer case ID with another case's id
  --invalid ID    answer case ID with JSON that is not a reply (trace is not a list)
  --misread ID    play case ID wrongly (an unblocked attack does not win): a rules failure
  --bad-hello     the first line is not a hello;  --old-protocol  hello says protocol_version 99
  --no-hello      exit at once with a message on stderr;  --mute  never write anything
  --pipeline      declare the capability ``pipeline`` (requests answered in the order read)
  --wait-for N    answer nothing until N requests are read (or stdin ends), then answer them in order:
                  only a harness that writes N requests before reading a reply gets answers
"""

import argparse
import json
import sys
import time

p = argparse.ArgumentParser()
for flag in ("--hang", "--crash", "--garbage", "--wrong-id", "--invalid", "--misread"):
    p.add_argument(flag, action="append", default=[])
for flag in ("--bad-hello", "--old-protocol", "--no-hello", "--mute", "--pipeline"):
    p.add_argument(flag, action="store_true")
p.add_argument("--wait-for", type=int, default=1)
opts = p.parse_args()
out = sys.stdout


def send(obj):
    out.write(json.dumps(obj) + "\n")
    out.flush()


def play(req, misread):
    setup, script = req["setup"], req["script"]
    active = setup["active"]
    defender = [p for p in setup["players"] if p != active][0]
    cards = {}
    for pid, pl in setup["players"].items():
        for zone, content in pl.items():
            if isinstance(content, list):
                for cs in content:
                    power = cs.get("power", req["cards"][cs["card"]].get("power"))
                    cards[cs["id"]] = {"owner": cs.get("owner", pid), "zone": zone,
                                       "tapped": cs.get("tapped", False), "power": power}
    trace, moment = [], [0]

    def emit(kind, args, same=False):
        if not same:
            moment[0] += 1
        trace.append({"moment": moment[0], "kind": kind, "args": args})

    at = [0]

    def decide(player, kinds, check):
        while at[0] < len(script):
            d = script[at[0]]
            i = at[0]
            at[0] += 1
            reason = None
            if d["kind"] not in kinds:
                reason = "unexpected_decision"
            elif d["player"] != player:
                reason = "not_your_decision"
            else:
                reason = check(d)
            if reason:
                emit("rejected", {"at": i, "player": d["player"], "reason": reason})
                continue
            emit("decided", {"at": i, "player": d["player"], "decision": d["kind"]})
            return d
        return None

    def own_untapped(player, cid, not_yours, tapped):
        c = cards.get(cid)
        if c is None:
            return "unknown_object"
        if c["zone"] != "battlefield" or c["owner"] != player:
            return not_yours
        return tapped if c["tapped"] else None

    winner = None
    d = decide(active, ("attack", "end_turn"),
               lambda d: own_untapped(active, d["args"], "attacker_not_yours", "attacker_tapped")
               if d["kind"] == "attack" else None)
    if d and d["kind"] == "attack":
        a = d["args"]
        cards[a]["tapped"] = True
        emit("tapped", {"card": a})
        emit("attacked", {"card": a, "player": active}, same=True)
        d = decide(defender, ("block",),
                   lambda d: None if d["args"] is None else
                   own_untapped(defender, d["args"], "blocker_not_yours", "blocker_tapped"))
        if d is None:
            return {"error": "script: no block decision"}
        g = d["args"]
        if g is None:
            if not misread:
                emit("won", {"player": active})
                winner = active
        else:
            emit("blocked", {"card": a, "by": g})
            pa, pg = cards[a]["power"] or 0, cards[g]["power"] or 0
            first = True
            for cid, lose in ((a, pa <= pg), (g, pg <= pa)):
                if lose:
                    cards[cid]["zone"] = "graveyard"
                    emit("moved", {"card": cid, "player": cards[cid]["owner"], "from": "battlefield",
                                   "to": "graveyard"}, same=not first)
                    first = False
    zones = {p: {z: [] for z in ("battlefield", "hand", "deck", "graveyard")} for p in setup["players"]}
    for pid, pl in setup["players"].items():
        if isinstance(pl.get("deck"), int):
            zones[pid]["deck"] = [f"{pid}.deck.{n}" for n in range(1, pl["deck"] + 1)]
    for cid, c in cards.items():
        zones[c["owner"]][c["zone"]].append(cid)
    final = {"players": zones, "cards": {cid: {"zone": c["zone"], "tapped": c["tapped"], "power": c["power"]}
                                         for cid, c in cards.items()}}
    return {"trace": trace, "final": final, "winner": winner}


if opts.mute:
    time.sleep(60)
    sys.exit(0)
if opts.no_hello:
    print("toy_engine: cannot find my rules file", file=sys.stderr)
    sys.exit(4)
if opts.bad_hello:
    out.write("Toy engine 1.0 ready\n")
    out.flush()
else:
    send({"type": "hello", "protocol_version": 99 if opts.old_protocol else 1, "schema_version": 1,
          "engine": {"name": "toy-engine", "version": "1.0"}, "games": ["toy"], "capabilities": ["pipeline"] if opts.pipeline else []})


def requests():
    """Request lines, held back until ``--wait-for`` of them are read (or the input ends)."""
    held = []
    for line in sys.stdin:
        held.append(line)
        if len(held) >= opts.wait_for:
            yield from held
            held.clear()
            opts.wait_for = 1
    yield from held


for line in requests():
    req = json.loads(line)
    if req.get("type") == "bye":
        break
    cid = req["id"]
    if cid in opts.hang:
        import os
        if os.environ.get("TOY_MARKER"):
            open(os.environ["TOY_MARKER"], "w").write(cid)
        print(f"toy_engine: thinking hard about {cid}", file=sys.stderr, flush=True)
        time.sleep(3600)
    if cid in opts.crash:
        print(f"toy_engine: segmentation fault in case {cid}", file=sys.stderr, flush=True)
        sys.exit(7)
    if cid in opts.garbage:
        out.write("oops, not JSON: <" + "x" * 1000 + ">\n")
        out.flush()
        continue
    reply = {"type": "result", "id": "other-case" if cid in opts.wrong_id else cid}
    if cid in opts.invalid:
        reply["trace"] = "none"
    else:
        reply.update(play(req, cid in opts.misread))
    send(reply)
