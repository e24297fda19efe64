#!/usr/bin/env bash
# How far each header reaches, read from the build's dependency files (.d): a change to a header
# recompiles every object that includes it, directly or through other headers, so a header of
# src/model/ may reach at most 25 objects — unless more than 25 files use it directly, and then
# only those (its ceiling is their number). A file uses a header directly when it, or its own
# header (src/X.h for src/X.cpp), includes it; or includes a header that exports it — an include
# marked "// exports" on its line, for the types a caller of that header must have (gpt.h exports
# the layers a Gpt is made of). text/translate.h may reach only the files that translate.
# Prints each header past its ceiling with the objects that reach it without using it, and a
# summary line "reach: N headers, N past their ceiling"; exit 1 if any.
# usage: tests/check_reach.sh BUILD_DIR
set -u
build=${1:-build}
deps=$(find "$build/obj" \( -path "$build/obj/live" -o -path "$build/obj/yours" \) -prune -o -name '*.d' -print 2>/dev/null | sort)
[ -n "$deps" ] || { echo "reach: no dependency files in $build/obj"; exit 1; }
{
  # "D source header…": each object's dependencies (the first is its source)
  # shellcheck disable=SC2086
  cat $deps | awk '
    { line = $0; if (sub(/\\$/, "", line)) { acc = acc " " line; next } acc = acc " " line
      if (acc ~ /^ *[^ ]*\.o:/) { sub(/^ *[^ ]*\.o: */, "", acc); print "D " acc } acc = "" }'
  # "F header": the headers there are, to tell src/… from chapters/… includes
  dirs=$(for d in src chapters tests; do [ -d "$d" ] && echo "$d"; done)
  # shellcheck disable=SC2086
  find $dirs -name '*.h' | sed 's/^/F /'
  # "I file header export": every #include "…" of our files
  # shellcheck disable=SC2086
  grep -rHn '^[[:space:]]*#include "' $dirs --include='*.h' --include='*.cpp' |
    awk -F: '{ file = $1; rest = substr($0, length($1) + length($2) + 3)
               split(rest, q, "\""); ex = (rest ~ /\/\/ *exports/) ? 1 : 0
               print "I " file " " q[2] " " ex }'
} | awk -v limit=25 '
  function resolved(inc) { return (("src/" inc) in present) ? "src/" inc : ("chapters/" inc) }
  $1 == "F" { present[$2] = 1; next }
  $1 == "I" { inc[++n_inc] = $2 " " $3 " " $4; next }
  $1 == "D" {
    src = $2
    if (system("test -e " src) != 0) next  # an object of a source since moved or removed
    objects[src] = 1
    for (i = 3; i <= NF; i++) if ($i ~ /^src\//) { reach[$i, src] = 1; reached[$i]++ }
  }
  END {
    for (k = 1; k <= n_inc; k++) {
      split(inc[k], p, " "); h = resolved(p[2])
      direct[p[1], h] = 1; if (p[3] == 1) exports[p[1], h] = 1
    }
    # a header exported by E is used by whoever includes E (exports chain: repeat until stable)
    do { changed = 0
      for (key in exports) { split(key, e, SUBSEP)
        for (key2 in direct) { split(key2, d, SUBSEP)
          if (d[2] == e[1] && !((d[1], e[2]) in direct)) { direct[d[1], e[2]] = 1; changed = 1 } } }
    } while (changed)
    headers = 0; past = 0
    for (h in reached) {
      if (h !~ /^src\/model\/.*\.h$/ && h != "src/text/translate.h") continue
      headers++; users = 0; list = ""
      for (o in objects) {
        own = o; sub(/\.cpp$/, ".h", own)
        use = ((o, h) in direct) || ((own, h) in direct)
        if ((h, o) in reach) { if (use) users++; else list = list "\n    " o }
      }
      ceiling = (h == "src/text/translate.h") ? users : (users > limit ? users : limit)
      if (reached[h] > ceiling) {
        past++
        printf "%s reaches %d objects (its ceiling %d: %d use it directly); without using it:%s\n", h, reached[h], ceiling, users, list
      }
    }
    print "reach: " headers " headers, " past " past their ceiling"
    exit past > 0
  }'
