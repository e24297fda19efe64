#!/usr/bin/env bash
# make plug N=…: every chapter's --check with the reader's exercise N in place of the project's
# function (tests/exercises/plug/NN_NAME.cpp says which file defines it). That file is compiled
# again position-independent (-fPIC: the compiler then never inlines the function inside its
# own file, so every call goes through its symbol) and the function made weak (objcopy
# --weaken-symbol); the plug, the project's signature calling the reader's function, is the
# strong definition the linker keeps. Everything else is the build's own objects. Prints each
# chapter's --check line and "plugged in: N chapters passed, N failed".
# usage: tests/exercises/plug.sh BUILD N CXX "CXXFLAGS OPT" "YOUR_FLAGS" "LDFLAGS" CHAPTER...
set -u
say=${SAY:-$1/say}  # the lines below in the reader's language (report/script_lines.h)
build=$1; n=$2; cxx=$3; flags=$4; your_flags=$5; ldflags=$6; shift 6
case "$n" in ''|*[!0-9]*) "$say" plug_needs_n >&2; exit 2;; esac
nn=$(printf %02d "$((10#$n))")
plug=$(ls tests/exercises/plug/"$nn"_*.cpp 2>/dev/null | head -1)
if [ -z "$plug" ]; then
  "$say" plug_no_function "$n" "$(ls tests/exercises/plug | sed 's/_.*//' | sed 's/^0//' | paste -sd, -)" >&2
  exit 2
fi
case "$($cxx -dumpmachine 2>/dev/null)" in *mingw*|*darwin*|*apple*|*wasm*)
  "$say" plug_needs_elf "$cxx" "$($cxx -dumpmachine)" >&2; exit 2;; esac
command -v objcopy >/dev/null && command -v nm >/dev/null || { "$say" plug_needs_binutils >&2; exit 2; }
name=$(basename "$plug" .cpp)
yours=${EXERCISE_FILE:-chapters/exercises/$name.cpp}  # the tests pass a file of their own
[ -e "$yours" ] || { "$say" plug_not_there "$yours" >&2; exit 2; }
# a stub still in place would stop every chapter at its first call: say so once instead
if grep -q 'not_written_yet(' "$yours"; then "$say" plug_not_written "$yours" >&2; exit 2; fi
project=$(sed -n 's|^// plugs into: ||p' "$plug")
dir=${PLUG_DIR:-$build/plug/$nn}
mkdir -p "$dir"
# shellcheck disable=SC2086  # the flags are words
$cxx $flags -fPIC -c "$project" -o "$dir/project.o" || exit 1
# shellcheck disable=SC2086
$cxx $flags -c "$plug" -o "$dir/plug.o" || exit 1
# shellcheck disable=SC2086
$cxx $your_flags -c "$yours" -o "$dir/yours.o" || exit 1
for symbol in $(nm --defined-only -g "$dir/plug.o" | awk '$2 == "T" { print $3 }'); do
  objcopy --weaken-symbol="$symbol" "$dir/project.o" || exit 1
done
passed=0; failed=0
for c in "$@"; do
  parts=$(ls "$build"/obj/chapters/"$c"/*.o 2>/dev/null)
  counter=; [ "$c" = ch11_long_sequences ] && counter=$build/obj/src/report/allocation_counter.o
  # shellcheck disable=SC2086
  $cxx "$build/obj/chapters/$c.o" $parts $counter ${FAST_LOOPS:-} "$dir/plug.o" "$dir/project.o" "$dir/yours.o" \
    "$build/libexercises.a" "$build/libtransformer.a" $ldflags -o "$dir/$c" || exit 1
  if PLUGGED_FUNCTION=$(sed -n 's|^// make plug N=[0-9]*: every chapter.s --check with your ||p' "$plug") \
     "$dir/$c" --check; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
function=$(sed -n 's|^// make plug N=[0-9]*: every chapter.s --check with your ||p' "$plug")
echo
"$say" plug_total "$function" "$yours" "$project" "$passed" "$failed"
[ "$failed" = 0 ]
