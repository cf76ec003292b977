"""Read pmutop's batch JSON (schema pmutop-batch/2) in the tests.

loads(text) parses one line and gives each table's rows as objects, the
way the checks read them: sample["threads"] is a list of
{"cpu", "core", "kind", "socket", "metrics": {name: value}, "scaled": [...],
"counts": {...}}; each socket holds its "channels" and "chas".  A metric a
table names in "na" reads None in every row's metrics, as a figure n/a does.
A table that is absent (its rows not asked for) is an empty list.  Other
JSON (marks, the API's other documents) comes back as it is.
"""
import json

IDS = ("cpu", "core", "kind", "socket", "channel", "cha")


def rows(sample, name):
    """The rows of table NAME of SAMPLE as objects ([] when absent)."""
    t = sample.get(name)
    if not isinstance(t, dict):
        return t if isinstance(t, list) else []
    cols, out = t["columns"], []
    scaled = sample.get("scaled", [])
    for r in t["data"]:
        if len(r) != len(cols):
            raise ValueError("%s: a row of %d values under %d columns" % (name, len(r), len(cols)))
        e = {"metrics": {}}
        for c, v in zip(cols, r):
            if c in IDS or c == "counts":
                e[c] = v
            else:
                e["metrics"][c] = v
        for m in t.get("na", {}):
            e["metrics"][m] = None
        e["scaled"] = [m for m in scaled if m in e["metrics"]]
        out.append(e)
    return out


def expand(sample):
    """SAMPLE with its tables as lists of objects (sockets holding channels and CHAs)."""
    if not isinstance(sample, dict):
        return sample
    if "summary" in sample and isinstance(sample["summary"], dict):
        for k in ("mean", "peak"):
            if k in sample["summary"]:
                sample["summary"][k] = expand(sample["summary"][k])
        return sample
    if not any(isinstance(sample.get(k), dict) and "columns" in sample[k]
               for k in ("threads", "cores", "sockets", "channels", "chas")):
        return sample
    chans, chas = rows(sample, "channels"), rows(sample, "chas")
    for k in ("threads", "cores", "sockets"):
        sample[k] = rows(sample, k)
    if not sample["sockets"] and (chans or chas):
        # channels asked for without sockets: a socket entry holds them, no figures of its own
        ids = sorted({c["socket"] for c in chans + chas})
        sample["sockets"] = [{"socket": i, "metrics": {}, "scaled": []} for i in ids]
    for s in sample["sockets"]:
        s["channels"] = [c for c in chans if c["socket"] == s["socket"]]
        mine = [c for c in chas if c["socket"] == s["socket"]]
        if mine:
            s["chas"] = mine
    sample["channels"], sample["chas"] = chans, chas
    return sample


def loads(text):
    return expand(json.loads(text))


def load(f):
    return expand(json.load(f))
