#!/usr/bin/env bash
# Comments in src/ quote no measurement: a timing, a rate or a speed-up belongs in
# tests/bench/README.md, where make bench measures it again, not beside code that outlives the
# machine it was measured on. Flags a comment (after //) holding a number with a unit of time
# (ns, µs, ms, s, seconds, minutes), a rate (GFLOP/s, tokens/s, GB/s, multiply-adds/s) or a
# speed-up ("1.8 times slower", "12% faster").
# Prints each with where it is, and a summary line "figures: N files, N comments quoting
# measurements"; exit 1 if any.
# usage: tests/check_figures.sh [SRC_DIR]
set -u
src=${1:-src}
number='[0-9][0-9.,]*'
unit="($number)( ?[–-] ?$number)? (ns|µs|us|ms|s|seconds?|minutes?)([^a-zA-Z0-9_]|$)"
rate="$number ?(G|M|k)? ?(FLOP|tokens|bytes|B|multiply-adds)/s"
speedup="$number( times|×|%) (slower|faster)"
files=0; found=0
while IFS= read -r file; do
  files=$((files + 1))
  while IFS= read -r hit; do
    [ -z "$hit" ] && continue
    echo "$file:$hit"; found=$((found + 1))
  done < <(grep -nE '//' "$file" | sed -E 's#^([0-9]+):.*//#\1:#' | grep -E "$unit|$rate|$speedup")
done < <(find "$src" -name '*.h' -o -name '*.cpp' | sort)
echo "figures: $files files, $found comments quoting measurements"
[ "$found" = 0 ]
