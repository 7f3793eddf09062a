#!/usr/bin/env python3
"""A whole broadcheck adapter (README, "Check your own library"): NumPy's add and mul, in every layout, on operands
of one dtype (NumPy promotes mixed ones its own way: a real adapter answers that and declares it)."""
import json, math, sys
import numpy as np

def number(x):  # the protocol's float encoding: NaN and the infinities as strings
    return x if isinstance(x, int) or math.isfinite(x) else "nan" if math.isnan(x) else "inf" if x > 0 else "-inf"

def outcome(request):
    case, bases, args = request["case"], [], []
    if case.get("scalars") or len({o["dtype"] for o in request["operands"]}) > 1:
        return {"status": "unsupported", "detail": "no alpha and no mixed dtypes in this example"}
    for o in request["operands"]:  # a fresh base, then the view the operand describes (docs/protocol.md)
        base = bases[o["views"]] if "views" in o else np.array(o.get("base", [0] * math.prod(o["base_shape"])), o["dtype"])
        bases.append(base)
        strides = [base.itemsize * s for s in o["strides"]]
        args.append(np.lib.stride_tricks.as_strided(base[o["offset"]:], o["shape"], strides))
    try:
        result = {"add": np.add, "mul": np.multiply}[case["op"]](*args)
    except ValueError as e:  # NumPy's broadcasting error
        return {"status": "error", "error": {"kind": "broadcast", "message": str(e)}}
    values = [number(x) for x in result.ravel().tolist()] if "values" in case else []
    return {"status": "ok", "shape": list(result.shape), "dtype": str(result.dtype), "values": values}

for line in sys.stdin:
    message = json.loads(line)
    if "hello" in message:
        answer = {"protocol": 1, "name": "mini", "version": np.__version__, "capabilities": {"ops": ["add", "mul"],
                  "dtypes": ["int64", "float32", "float64"],
                  "layouts": ["contiguous", "transposed", "strided", "expanded", "overlapping"]}}
    else:
        answer = {"id": message["id"], "outcome": outcome(message)}
    print(json.dumps(answer), flush=True)
