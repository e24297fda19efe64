#!/usr/bin/env bash
# The library files of src/ that the given programs need, found by following their #includes:
# a header X.h brings in X.cpp, which defines it, and every file that includes in turn; a
# library file with no header of its own (core/pow_tanh.cpp, which defines two of elementary.h's
# functions) comes in with any header it includes. Prints the .cpp files of src/ needed, one a
# line, sorted. The Makefile builds only these where a build needs only some chapters (make
# cross's arm64 and x86-64-v2 builds, the live book's modules) instead of a list typed by hand.
# Needs bash 4 (associative arrays): the builds that call it are made on Linux.
# usage: tests/tools/sources_needed.sh FILE...   (chapters/chNN_name.cpp, src/fast/plug_in.cpp, …)
set -u
declare -A includes=() seen=() orphan_of=()
# every include of every file at once: "file:line" from one grep
while IFS= read -r hit; do
  file=${hit%%:*}; inc=${hit#*:}; inc=${inc#*\"}; inc=${inc%%\"*}
  includes[$file]+="$inc "
done < <(grep -rH '^[[:space:]]*#include "' src chapters --include='*.h' --include='*.cpp')
# headerless library files, by the headers they include
for f in $(find src -name '*.cpp' -not -path 'src/exercises/*' -not -path 'src/web/*'); do
  [ -e "${f%.cpp}.h" ] && continue
  for inc in ${includes[$f]:-}; do orphan_of[$inc]+="$f "; done
done
queue=("$@")
while [ ${#queue[@]} -gt 0 ]; do
  f=${queue[${#queue[@]}-1]}; unset 'queue[${#queue[@]}-1]'
  [ -n "${seen[$f]:-}" ] && continue
  seen[$f]=1
  for inc in ${includes[$f]:-}; do
    if [ -e "src/$inc" ]; then path="src/$inc"; elif [ -e "chapters/$inc" ]; then path="chapters/$inc"; else continue; fi
    queue+=("$path")
    [ -e "${path%.h}.cpp" ] && queue+=("${path%.h}.cpp")
    for o in ${orphan_of[$inc]:-}; do queue+=("$o"); done
  done
done
for f in "${!seen[@]}"; do [[ $f == src/*.cpp ]] && echo "$f"; done | sort
