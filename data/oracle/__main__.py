"""The oracle: writes every chapter's data file (inputs and expected values).

Independent of the C++ under test: expected values are computed here with PyTorch in float64,
using PyTorch's own functions wherever one exists (torch.softmax, nn.MultiheadAttention, ...).
The numbers the tutorial prints are stored as printed (strings), and the oracle lists which of
them are not correct roundings of the exact values (tutorial.errata), judged with Python's
decimal module.

    make goldens            # = python3 data/oracle: rewrite data/chNN_*.json (and tests/data/)
    make rewrite FILE=...   # = python3 data/oracle --rewrite FILE: the expected values of FILE,
                            #   from its own inputs

One file per chapter (chNN_*.py: its inputs, its expected values, the tutorial's printed
numbers), and the shared pieces: common.py (deterministic JSON, the seeded generator), model.py
(the encoder-decoder on nn.Transformer), numerals.py (chapter 7's translation task), variants.py
(the other data files of tests/data/). This file puts them together.

Output is deterministic to the byte: fixed key order, every float written with as many
significant digits (at most 17) as it takes to read back as exactly the same double.
Needs Debian's python3-torch and python3-numpy (a development tool: the build and tests do not).
"""
import json
import os
import sys

import torch

import ch01_dictionary_lookup
import ch02_self_attention
import ch03_masked_attention
import ch04_multi_head_attention
import ch05_positional_encoding
import ch06_encoder_decoder
import ch07_training
import ch08_cost
import ch09_decoding
import ch10_modern_attention
import ch11_long_sequences
import ch12_gpt
import ch13_precision
import ch14_inside_the_poet
from common import digest, errata, to_text, tr, write
from variants import smallest, variants

DATA = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # data/

# Every chapter: what its data file says it holds, its inputs, its expected values, and the
# numbers the tutorial printed for it (with the inputs they belong to).
CHAPTERS = {
    m.__name__: (m.ABOUT, m.INPUTS, m.EXPECTED, m.TUTORIAL)
    for m in (
        ch01_dictionary_lookup,
        ch02_self_attention,
        ch03_masked_attention,
        ch04_multi_head_attention,
        ch05_positional_encoding,
        ch06_encoder_decoder,
        ch07_training,
        ch08_cost,
        ch09_decoding,
        ch10_modern_attention,
        ch11_long_sequences,
        ch12_gpt,
        ch13_precision,
        ch14_inside_the_poet,
    )
}


def document(name, inputs, with_tutorial=True):
    """A data file. Its "tutorial" part (the numbers the tutorial prints, and which of them are
    wrong) is written only when the inputs those numbers belong to (tutorial.inputs) are the
    file's own: a reader's changed inputs are never judged against the tutorial's numbers."""
    about, _, expected_of, tutorial_of = CHAPTERS[name]
    expected = expected_of(inputs)
    # the fingerprint of each input as the programs read it back (json.loads of what is written)
    read_back = json.loads(to_text(inputs))
    doc = {
        "chapter": name,
        "about": about,
        "inputs": inputs,
        "expected_from": {k: digest(v) for k, v in read_back.items()},
        "expected": expected,
    }
    tutorial = tutorial_of() if with_tutorial else {}
    own = all(inputs.get(k) == v for k, v in tutorial.get("inputs", {}).items())
    if tutorial.get("printed") and own:
        plain = {k: (v.tolist() if isinstance(v, torch.Tensor) else v) for k, v in expected.items()}
        tutorial["errata"] = errata(tutorial["printed"], plain)
        doc["tutorial"] = tutorial
    return doc


def fail(message):
    """One line, as the chapter programs report bad input, and exit code 2."""
    print(tr("error: {}", message), file=sys.stderr)
    sys.exit(2)


def rewrite(path):
    """Recomputes the expected values of a data file from its own inputs (make rewrite FILE=...)."""
    try:
        with open(path, encoding="utf-8") as f:
            old = json.load(f)
    except OSError as e:
        fail(tr("{}: cannot open the file ({})", path, e.strerror))
    except json.JSONDecodeError as e:
        fail(tr("{}, line {} column {}: not valid JSON", path, e.lineno, e.colno))
    if not isinstance(old, dict) or old.get("chapter") not in CHAPTERS:
        fail(tr("{}, chapter: expected one of {}", path, ", ".join(CHAPTERS)))
    if not isinstance(old.get("inputs"), dict):
        fail(tr("{}, inputs: expected an object", path))
    try:
        doc = document(old["chapter"], old["inputs"])
        if "tutorial" not in doc and isinstance(old.get("tutorial"), dict):
            # the tutorial's printed numbers belong to its own inputs (tutorial.inputs): kept, and
            # marked as not judged for these
            doc["tutorial"] = dict(
                old["tutorial"],
                note="printed for tutorial.inputs; this "
                "file's inputs differ, so the programs do not judge them",
            )
    except KeyError as e:
        fail(tr("{}, {}: missing (this key is required)", path, "inputs." + str(e.args[0])))
    except Exception as e:  # a shape that does not fit, a value of the wrong type, ...
        fail(f"{path}, inputs: {' '.join(str(e).split())}")
    write(path, doc)


def main(argv):
    if len(argv) == 3 and argv[1] == "--rewrite":
        rewrite(argv[2])
        return 0
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    for name, (_, inputs_of, _, _) in CHAPTERS.items():
        write(os.path.join(DATA, name + ".json"), document(name, inputs_of()))
    os.makedirs(os.path.join(DATA, "..", "tests", "data"), exist_ok=True)
    for name, tag, inputs in variants():
        path = os.path.join(DATA, "..", "tests", "data", f"{name}.{tag}.json")
        write(path, document(name, inputs, with_tutorial=False))
    for name, inputs in smallest():
        path = os.path.join(DATA, "..", "tests", "data", f"{name}.smallest.json")
        write(path, document(name, inputs, with_tutorial=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
