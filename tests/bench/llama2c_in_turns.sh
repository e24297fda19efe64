#!/usr/bin/env bash
# llama2c_in_turns.sh — `make bench-llama2c LLAMA2C=DIR [ROUNDS=N]`: our decoding and llama2.c's
# at stories15M's shape, timed in turns, round after round.
#
# On a virtual machine whose speed moves by a third within minutes (tests/bench/README.md), a
# figure of ours from make bench and one of llama2.c's taken minutes later compare two moments as
# much as two programs. Here each round runs, one right after the other: our float32 decoding
# and llama2.c's run.c, then our int8 × int8 decoding and its runq.c, each on one thread and on
# two; every pairing's ratio is ours ÷ theirs in that round, and the table gives each pairing's
# median over the rounds, their range, and best against best.
#
# llama2.c is built here as a reader would build it for speed: gcc -Ofast -march=native, and with
# -fopenmp for two threads. Its model files are written here at stories15M's shape (dim 288,
# hidden 768, 6 layers, 6 heads, vocabulary 32,000, sequence 256, the classifier shared; runq's
# weights in groups of 64) with seeded random weights — speed does not depend on the values — and
# the delimiter's embedding row zero, so that greedy decoding never stops before 256 tokens.
# Needs gcc and Python with numpy (PYTHON, else python3: the model files); our side is `BUILD/bench BUILD --decode`.
set -euo pipefail
build=${1:-build}
dir=${2:-}
rounds=${3:-8}
say() { echo "bench-llama2c: $*"; }
fail() { echo "error: $*" >&2; exit 2; }

[ -n "$dir" ] || fail "make bench-llama2c: LLAMA2C, a folder holding llama2.c's run.c and runq.c, was expected (make bench-llama2c LLAMA2C=path/to/llama2.c)"
for f in run.c runq.c; do
  [ -f "$dir/$f" ] || fail "$dir/$f: llama2.c's $f was expected there (LLAMA2C=path/to/llama2.c)"
done
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || fail "ROUNDS '$rounds': a whole number of rounds, 1 or more, was expected"
[ -x "$build/bench" ] || fail "$build/bench: not built (make bench-llama2c builds it)"
command -v gcc > /dev/null || fail "gcc: not found; llama2.c is built with it"
python=${PYTHON:-python3}  # make passes the system's (Debian's python3-numpy is there)
"$python" -c "import numpy" 2> /dev/null || fail "$python with numpy: not found; it writes llama2.c's model files (apt-get install python3-numpy)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for prog in run runq; do
  gcc -Ofast -march=native -o "$work/${prog}_1" "$dir/$prog.c" -lm
  gcc -Ofast -fopenmp -march=native -o "$work/${prog}_2" "$dir/$prog.c" -lm
done

# llama2.c's three files: model.bin (run.c's float32 layout: 7 ints, then the tensors in its
# order), modelq.bin (runq.c's: a 256-byte header, the norms' gains, then each matrix in int8
# groups of 64 followed by the groups' float32 scales) and tok.bin (its vocabulary: a length
# bound, then each token's score, length and bytes)
"$python" - "$work" <<'PY'
import struct, sys
import numpy as np

out = sys.argv[1]
dim, hidden, layers, heads, kv_heads, vocab, seq, group = 288, 768, 6, 6, 6, 32000, 256, 64
rng = np.random.default_rng(15)
def weights(*shape):
    return (0.02 * rng.standard_normal(shape)).astype(np.float32)
embedding = weights(vocab, dim)
embedding[1] = 0  # the delimiter's row (llama2.c stops at token 1): a logit of 0 where the
                  # largest of 32,000 random ones is above 0, so greedy decoding never picks it
wq, wk, wv, wo = (weights(layers, dim, dim) for _ in range(4))
w1, w2, w3 = weights(layers, hidden, dim), weights(layers, dim, hidden), weights(layers, hidden, dim)
gains = np.ones((layers, dim), np.float32)
final_gain = np.ones(dim, np.float32)
half_head = dim // heads // 2

with open(f"{out}/model.bin", "wb") as f:
    f.write(struct.pack("<7i", dim, hidden, layers, heads, kv_heads, vocab, seq))
    for t in (embedding, gains, wq, wk, wv, wo, gains, w1, w2, w3, final_gain,
              np.zeros(seq * half_head, np.float32), np.zeros(seq * half_head, np.float32)):
        f.write(t.tobytes())

def int8_groups(t):
    g = t.reshape(-1, group)
    scale = np.abs(g).max(axis=1) / 127.0
    q = np.round(g / np.where(scale > 0, scale, 1.0)[:, None]).astype(np.int8)
    return q.tobytes() + scale.astype(np.float32).tobytes()

with open(f"{out}/modelq.bin", "wb") as f:
    header = struct.pack("<Ii7iBi", 0x616B3432, 2, dim, hidden, layers, heads, kv_heads, vocab, seq,
                         1, group)
    f.write(header.ljust(256, b"\0"))
    for t in (gains, gains, final_gain):
        f.write(t.tobytes())
    f.write(int8_groups(embedding))
    for m in (wq, wk, wv, wo, w1, w2, w3):
        for layer in m:
            f.write(int8_groups(layer))

with open(f"{out}/tok.bin", "wb") as f:
    f.write(struct.pack("<i", 16))
    for i in range(vocab):
        text = (f"<0x{i:02X}>" if 3 <= i < 259 else f" w{i}").encode()
        f.write(struct.pack("<fi", 0.0, len(text)) + text)
PY

# one llama2.c run's own figure: its "achieved tok/s" (its clock starts after the first token)
theirs() {  # program threads model
  OMP_NUM_THREADS=$2 "$work/$1_$2" "$work/$3" -z "$work/tok.bin" -n 256 -t 0 -s 1 2>&1 > /dev/null |
    awk '/achieved tok\/s/ {print $3}'
}
ours() {  # format threads
  OMP_NUM_THREADS=$2 "$build/bench" "$build" --decode "$1" 256 |
    "$python" -c 'import json, sys; print(json.load(sys.stdin)["tokens_per_second"])'
}

say "$rounds round(s): in each, 8 programs of 256 tokens, one right after the other"
results="$work/rounds.txt"
for r in $(seq "$rounds"); do
  for pairing in "float32 run model.bin" "int8x8 runq modelq.bin"; do
    set -- $pairing
    for t in 1 2; do
      a=$(ours "$1" "$t")
      b=$(theirs "$2" "$t" "$3")
      [ -n "$a" ] && [ -n "$b" ] || fail "round $r: $1 on $t threads: no figure (ours '${a}', theirs '${b}')"
      echo "$1 $2 $t $a $b" >> "$results"
    done
  done
  say "round $r of $rounds done"
done

"$python" - "$results" <<'PY'
import statistics, sys

rows = {}
for line in open(sys.argv[1]):
    fmt, prog, threads, ours, theirs = line.split()
    rows.setdefault((fmt, prog, int(threads)), []).append((float(ours), float(theirs)))
names = {"float32": "float32", "int8x8": "int8 × int8"}
print(f"   {'decoding, tokens/s, in turns':32} {'against':22} {'median':>7} {'range':>13}"
      f" {'ours best':>10} {'theirs best':>12} {'ratio':>6}")
for (fmt, prog, threads), pairs in rows.items():
    ratios = sorted(o / t for o, t in pairs)
    best_ours, best_theirs = max(o for o, _ in pairs), max(t for _, t in pairs)
    flags = "-Ofast" + (" -fopenmp" if threads > 1 else "")
    label = f"{names[fmt]}, {threads} thread{'s' if threads > 1 else ''}"
    print(f"   {label:32} {prog + '.c ' + flags:22} {statistics.median(ratios):7.3f}"
          f" {ratios[0]:6.3f}–{ratios[-1]:.3f} {best_ours:10.1f} {best_theirs:12.1f}"
          f" {best_ours / best_theirs:6.3f}")
count = len(next(iter(rows.values())))
print(f"({count} round{'s' if count > 1 else ''}; ratio: ours ÷ llama2.c's, above 1 is faster; "
      "median and range of the rounds' ratios, then best against best. Ours times all 256 "
      "tokens, llama2.c its last 255; ours reads 13.9 million weights a token, llama2.c 15.2 "
      "million: its feed-forward has a third matrix)")
PY
