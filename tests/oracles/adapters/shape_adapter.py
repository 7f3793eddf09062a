#!/usr/bin/env python3
"""A test adapter for broadcheck's protocol, in plain Python: it answers shape-level `add` cases with the
broadcasting rule, and misbehaves on purpose as its first argument says:
  good      follows the rule
  single    follows the rule, and declares no batches (each case is a request of its own)
  planted   a size-0 dim stretches like a size-1 dim (0 against 3 gives 3: the planted bug)
  crash     aborts (SIGABRT) on a case with a dim of size 7
  hang      never answers a case with a dim of size 7
  garbage   answers a case with a dim of size 7 with a line that is not JSON
  exit      exits (status 3) on a case with a dim of size 7
  badhello  answers the handshake with protocol 99
  readahead reads every request already waiting before it answers, and aborts (SIGABRT) as soon as it has read a
            case with a dim of size 7, leaving the cases read before it unanswered
  log FILE  follows the rule, and appends a line to FILE for each case as soon as it has read its request: the
            request's id (a batch's cases share one)
  crashlog FILE  as crash, and logs each case as log does
  once FILE     aborts (SIGABRT) on the first case that any of its processes sees (FILE counts the cases), and
                follows the rule after
  flip FILE     answers wrongly (an error of kind other) and rightly in turn, the turn counted in FILE across its
                processes: the same case gets other answers in other runs
  short     answers every batch with one outcome too few (a single request rightly)
  crashat N     writes a traceback on stderr and aborts at its Nth request, whatever the request holds
  hangat N      never answers its Nth request, whatever the request holds
  huge      answers a case with a dim of size 7 with a 200 MB detail
  deep      answers a case with a dim of size 7 with an answer nested 100000 levels deep
  spam      writes 64 KiB on stderr for every case, and on a case with a dim of size 7 a traceback, then aborts
  slowstart FILE  follows the rule, and starts slowly: appends "start" to FILE, sleeps 1.5 s, reads the hello, then
                  appends "ready" to FILE and writes its handshake
"""
import json
import os
import select
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
STATE = sys.argv[2] if len(sys.argv) > 2 else ""
DEEP = "[" * 100000 + "]" * 100000


def turn():
    """How many cases with a 7 the adapter's processes have seen before this one (kept in STATE)."""
    seen = int(open(STATE).read() or 0) if os.path.exists(STATE) else 0
    with open(STATE, "w") as f:
        f.write(str(seen + 1))
    return seen


def broadcast(shapes, planted):
    rank = max((len(s) for s in shapes), default=0)
    out = []
    for d in range(rank):
        sizes = [s[len(s) - rank + d] for s in shapes if len(s) - rank + d >= 0]
        stretchable = (1, 0) if planted else (1,)
        big = [n for n in sizes if n not in stretchable]
        if len(set(big)) > 1:
            return None
        out.append(big[0] if big else (0 if 0 in sizes and not planted else max(sizes)))
    return out


def outcome(case):
    shapes = case["shapes"]
    if MODE == "once" and turn() == 0:
        os.abort()
    if MODE == "flip" and turn() % 2 == 0:
        return {"status": "error", "error": {"kind": "other", "message": "changed its mind"}}
    if MODE == "spam":
        sys.stderr.write("spam " * 13107 + "\n")
    if any(7 in s for s in shapes):
        if MODE == "spam":
            sys.stderr.write("Traceback (most recent call last):\nRuntimeError: the spam adapter fails on a 7\n")
            sys.stderr.flush()
            os.abort()
        if MODE == "huge":
            return {"status": "unsupported", "detail": "HUGE"}
        if MODE == "deep":
            return {"status": "unsupported", "detail": "deep", "nested": "DEEP"}
        if MODE in ("crash", "crashlog"):
            os.abort()
        if MODE == "hang":
            time.sleep(3600)
        if MODE == "garbage":
            return None
        if MODE == "exit":
            sys.exit(3)

    shape = broadcast(shapes, MODE == "planted")
    if shape is None:
        return {"status": "error", "error": {"kind": "broadcast", "message": "shapes do not broadcast"}}
    return {"status": "ok", "shape": shape, "dtype": "float32"}


def requests():
    """The requests in order; in readahead mode those already waiting are read (and checked) before any answer."""
    if MODE != "readahead":
        for line in sys.stdin:
            request = json.loads(line)
            if MODE in ("log", "crashlog"):
                with open(STATE, "a") as f:
                    f.write("".join("%d\n" % request["id"] for _ in request.get("batch", [request])))
            yield request
        return
    fd, pending = sys.stdin.fileno(), b""
    while True:
        chunk = os.read(fd, 1 << 16)
        while chunk and select.select([fd], [], [], 0.5)[0]:
            more = os.read(fd, 1 << 16)
            chunk, more_left = chunk + more, bool(more)
            if not more_left:
                break
        if not chunk:
            return
        *lines, pending = (pending + chunk).split(b"\n")
        read = [json.loads(line) for line in lines]
        if any(7 in s for r in read for s in r["case"]["shapes"]):
            os.abort()
        yield from read


def write_huge(request, answers):
    """The answer with each "HUGE" detail 200 MB of "x", written 1 MiB at a time (never held whole)."""
    text = json.dumps({"id": request["id"], "outcomes" if "batch" in request else "outcome":
                       answers if "batch" in request else answers[0]})
    head, *rest = text.split('"HUGE"')
    sys.stdout.write(head)
    for part in rest:
        sys.stdout.write('"')
        for _ in range(200):
            sys.stdout.write("x" * (1 << 20))
        sys.stdout.write('"' + part)
    sys.stdout.write("\n")


def note(word):
    with open(STATE, "a") as f:
        f.write(word + "\n")


def main():
    if MODE == "slowstart":
        note("start")
        time.sleep(1.5)
    json.loads(sys.stdin.readline())
    if MODE == "slowstart":
        note("ready")
    caps = {"ops": ["add"], "dtypes": ["float32"], "layouts": ["contiguous"], "gradients": False, "batch": MODE != "single"}
    protocol = 99 if MODE == "badhello" else 1
    print(json.dumps({"protocol": protocol, "name": "shape adapter", "version": MODE, "capabilities": caps}), flush=True)
    for number, request in enumerate(requests(), 1):
        if MODE == "crashat" and number == int(STATE):
            sys.stderr.write("Traceback (most recent call last):\nMemoryError: request %d is one too many\n" % number)
            sys.stderr.flush()
            os.abort()
        if MODE == "hangat" and number == int(STATE):
            time.sleep(3600)
        answers = [outcome(r["case"]) for r in request.get("batch", [request])]
        if MODE == "short" and "batch" in request:
            answers.pop()
        if None in answers:
            sys.stdout.write("this is not JSON\n")
        elif MODE == "huge" and any(a.get("detail") == "HUGE" for a in answers):
            write_huge(request, answers)
        elif "batch" in request:
            sys.stdout.write(json.dumps({"id": request["id"], "outcomes": answers}).replace('"DEEP"', DEEP) + "\n")
        else:
            sys.stdout.write(json.dumps({"id": request["id"], "outcome": answers[0]}).replace('"DEEP"', DEEP) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
