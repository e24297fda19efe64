#!/usr/bin/env bash
# No two files of src/ call each other: the library reads in one direction, each file built on
# files below it, never on one that is built on it. Read from the build's objects (nm): file A
# calls into B when a symbol A's object needs is one B's object defines. Prints each pair that
# calls both ways, with a function each way, and a summary line "calls: N files, N pairs that
# call each other"; exit 1 if any. Where nm is missing, one line says so and nothing is checked.
# usage: tests/check_calls.sh BUILD_DIR
set -u
build=${1:-build}
if ! command -v nm >/dev/null; then echo "calls: skipped: no nm (binutils)"; exit 0; fi
objects=$(find "$build/obj/src" -name '*.o' 2>/dev/null | sort)
[ -n "$objects" ] || { echo "calls: no objects in $build/obj/src"; exit 1; }
# every object's symbols in two runs of nm ("file:address type symbol" with -A), as
# "D file symbol" (defined in its text) and "U file symbol" (needed)
{
  # shellcheck disable=SC2086
  nm -C -A --defined-only $objects | awk '$2 == "T" {
    file = $1; sub(/:.*/, "", file); line = $0; sub(/^[^ ]* T /, "", line); print "D\t" file "\t" line }'
  # shellcheck disable=SC2086
  nm -C -A --undefined-only $objects | awk '{
    file = $1; sub(/:.*/, "", file); line = $0; sub(/^[^ ]* *U /, "", line); print "U\t" file "\t" line }'
} | sed "s|\t$build/obj/|\t|; s|\.o\t|\t|" | awk -F'\t' -v files="$(wc -w <<<"$objects")" '
  $1 == "D" { if (!($3 in owner)) owner[$3] = $2; next }
  { need[++n] = $2 "\t" $3 }
  END {
    for (i = 1; i <= n; i++) {
      split(need[i], p, "\t"); f = p[1]; s = p[2]
      if ((s in owner) && owner[s] != f && !((f, owner[s]) in calls)) calls[f, owner[s]] = s
    }
    pairs = 0
    for (k in calls) {
      split(k, ab, SUBSEP); a = ab[1]; b = ab[2]
      if (a < b && ((b, a) in calls)) {
        print a ".cpp <-> " b ".cpp: " calls[a, b] " / " calls[b, a]; pairs++
      }
    }
    print "calls: " files " files, " pairs " pairs that call each other"
    exit pairs > 0
  }'
