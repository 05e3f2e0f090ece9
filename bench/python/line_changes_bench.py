"""Times the Python reference, vis-lang-interface's `line_changes`, for bench/lineChanges.bench.ts.

Nothing here counts lines: it imports the reference from a copy that is already on this machine
and times calls of it in this process, so Python's start-up is not in the figures. It reads one
JSON request per line on stdin and writes one JSON answer per line on stdout:

  {"load": NAME, "before": PATH, "after": PATH}  ->  {"added": A, "removed": R}
      reads both files as UTF-8 with newlines kept as they are and counts them once (a warm-up)
  {"time": NAME, "runs": N}                       ->  {"ms": [N wall times in milliseconds]}

Where the reference comes from, first that works:
  1. VIS_LANG_INTERFACE_SRC: a checkout of vis-lang-interface (its root or its `src` folder), or
     the `changes.py` file itself;
  2. an installed `vis_lang_interface` package.
If none does, the first answer is {"absent": REASON} and the script ends.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
import time


def _from_file(path):
    spec = importlib.util.spec_from_file_location("vis_lang_interface_changes", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.line_changes


def _reference():
    """`line_changes` and where it was found, or None and why not."""
    source = os.environ.get("VIS_LANG_INTERFACE_SRC", "")
    if source:
        candidates = [source] if source.endswith(".py") else [
            os.path.join(source, "src", "vis_lang_interface", "changes.py"),
            os.path.join(source, "vis_lang_interface", "changes.py"),
        ]
        for path in candidates:
            if os.path.isfile(path):
                # The file alone: the package's __init__ may need dependencies this machine lacks.
                return _from_file(path), path, None
        return None, None, f"VIS_LANG_INTERFACE_SRC={source} holds no vis_lang_interface/changes.py"
    try:
        module = importlib.import_module("vis_lang_interface.changes")
    except ImportError as error:
        return None, None, f"no VIS_LANG_INTERFACE_SRC and no installed vis_lang_interface ({error})"
    return module.line_changes, module.__file__, None


def main():
    line_changes, where, reason = _reference()
    out = sys.stdout
    if line_changes is None:
        out.write(json.dumps({"absent": reason}) + "\n")
        return
    out.write(json.dumps({"reference": where, "python": sys.version.split()[0]}) + "\n")
    out.flush()
    inputs = {}
    clock = time.perf_counter
    for request in sys.stdin:
        ask = json.loads(request)
        if "load" in ask:
            texts = []
            for key in ("before", "after"):
                with open(ask[key], encoding="utf-8", newline="") as f:
                    texts.append(f.read())
            inputs[ask["load"]] = texts
            added, removed = line_changes(*texts)
            answer = {"added": added, "removed": removed}
        else:
            before, after = inputs[ask["time"]]
            times = []
            for _ in range(ask["runs"]):
                start = clock()
                line_changes(before, after)
                times.append((clock() - start) * 1000)
            answer = {"ms": times}
        out.write(json.dumps(answer) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
