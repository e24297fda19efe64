"""What every chapter of the oracle shares: deterministic JSON, the tutorial's printed numbers
judged with the decimal module, and the seeded generator the C++ reproduces.
"""
import math
import os
import struct
from decimal import Decimal

import torch

torch.set_default_dtype(torch.float64)


# --- writing JSON deterministically ----------------------------------------------------------
def fmt_number(x):
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    x = float(x)
    if not math.isfinite(x):
        raise ValueError("non-finite value in the oracle's output")
    if x == int(x) and abs(x) < 1e15:
        return str(int(x)) if x != 0 or math.copysign(1, x) > 0 else "0"
    return repr(x)  # the shortest text that reads back as exactly this double (<= 17 digits)


def to_text(value, indent=0):
    """JSON text: objects one key per line, arrays of scalars on one line."""
    pad = "  " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f'{pad}  "{k}": {to_text(v, indent + 1)}' for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, (list, tuple)):
        if all(not isinstance(v, (list, tuple, dict)) for v in value):
            return "[" + ", ".join(to_text(v) for v in value) + "]"
        return (
            "[\n"
            + ",\n".join(pad + "  " + to_text(v, indent + 1) for v in value)
            + "\n"
            + pad
            + "]"
        )
    if isinstance(value, str):
        import json

        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, torch.Tensor):
        return to_text(value.tolist(), indent)
    if value is None:
        return "null"
    return fmt_number(value)


def _catalog():
    """The Chinese catalog (data/translations/zh.json) when the locale asks for Chinese, as the
    chapter programs choose: the first of LC_ALL, LC_MESSAGES, LANG that is set, a zh… one."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            if not value.startswith("zh"):
                return {}
            break
    else:
        return {}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "translations", "zh.json")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)["messages"]
    except (OSError, ValueError, KeyError):
        return {}


_MESSAGES = None


def tr(english, *args):
    """A line the oracle prints, in the reader's language: the catalog's entry for the English
    (tests/test_catalog.cpp holds that there is one), its placeholders filled as the programs
    fill them: "{}" in order, "{1}", "{2}", ... by position."""
    global _MESSAGES
    if _MESSAGES is None:
        _MESSAGES = _catalog()
    pattern = _MESSAGES.get(english, english)
    out, i, k = "", 0, 0
    while i < len(pattern):
        if pattern.startswith("{}", i):
            out += str(args[k]) if k < len(args) else "{}"
            k, i = k + 1, i + 2
        elif pattern[i] == "{" and pattern.find("}", i) > i + 1 and pattern[i + 1 : pattern.find("}", i)].isdigit():
            j = pattern.find("}", i)
            n = int(pattern[i + 1 : j])
            out += str(args[n - 1]) if 0 < n <= len(args) else pattern[i : j + 1]
            i = j + 1
        else:
            out, i = out + pattern[i], i + 1
    return out


def write(path, document):
    """Writes the document whole or not at all, as src/io/atomic_file.cpp does: through a symbolic
    link to its file, never over a read-only file, keeping the file's mode; a unique temporary
    beside it, flushed to the disk, then renamed over it."""
    import stat
    import tempfile

    text = to_text(document) + "\n"
    target = os.path.realpath(path)
    mode = 0o644
    if os.path.exists(target):
        mode = stat.S_IMODE(os.stat(target).st_mode)
        if not mode & stat.S_IWUSR or not os.access(target, os.W_OK):
            raise SystemExit(tr("error: {}: read-only; it is not replaced (chmod u+w allows it)", path))
    fd, tmp = tempfile.mkstemp(
        dir=os.path.dirname(target), prefix="." + os.path.basename(target) + ".tmp."
    )
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)  # never a half-written data file
    except BaseException:
        os.unlink(tmp)
        raise


# --- the tutorial's printed numbers ------------------------------------------------------------
def errata(printed, expected):
    """Positions whose printed string is not a correct rounding of the exact value."""
    found = []
    for name, grid in printed.items():
        exact = expected[name]
        if isinstance(grid, str):
            grid, exact = [[grid]], [[exact]]
        elif not isinstance(grid[0], list):
            grid, exact = [grid], [exact]
        for r, row in enumerate(grid):
            for c, text in enumerate(row):
                p = Decimal(text)
                half_unit = Decimal(1).scaleb(p.as_tuple().exponent) / 2
                e = Decimal(float(exact[r][c]))
                if abs(e - p) > half_unit:
                    found.append(
                        {
                            "name": name,
                            "row": r,
                            "col": c,
                            "printed": text,
                            "correct": float(exact[r][c]),
                        }
                    )
    return found


# --- a seeded generator that C++ (src/random.h) reproduces exactly ----------------------------
class SplitMix64:
    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def uniform(self):  # in (0, 1)
        return ((self.next() >> 11) + 0.5) * 2.0**-53

    def normal(self):  # Box-Muller, one value per pair of uniforms
        u1, u2 = self.uniform(), self.uniform()
        return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)


T = lambda rows: torch.tensor(rows, dtype=torch.float64)


def rounded_normals(rng, rows, cols, digits=2):
    return [[round(rng.normal(), digits) for _ in range(cols)] for _ in range(rows)]


def digest(value):
    """64-bit FNV-1a of a JSON value's canonical encoding, as src/io/data_file.cpp computes it:
    the fingerprint of the inputs a data file's expected values were computed from."""
    h = 0xCBF29CE484222325

    def feed(data):
        nonlocal h
        for byte in data:
            h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF

    def walk(v):
        if isinstance(v, bool):
            feed(b"b1" if v else b"b0")
        elif v is None:
            feed(b"n")
        elif isinstance(v, int):
            feed(b"i" + str(v).encode() + b";")
        elif isinstance(v, float):
            feed(b"f" + struct.pack("<d", v))
        elif isinstance(v, str):
            e = v.encode("utf-8")
            feed(b"s" + str(len(e)).encode() + b":" + e)
        elif isinstance(v, list):
            feed(b"[" + str(len(v)).encode() + b":")
            for x in v:
                walk(x)
        else:
            feed(b"{" + str(len(v)).encode() + b":")
            for k, x in v.items():
                walk(k)
                walk(x)

    walk(value)
    return f"{h:016x}"
