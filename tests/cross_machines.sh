#!/usr/bin/env bash
# The same numbers on other machines: chapters built for other machines run beside this build,
# and their --json compared with this build's, key by key and bit for bit (build/same_numbers;
# the measured quantities, such as timings and the thread count, aside, named in its one list).
# Between these builds the register tile differs (src/fast/tile_shape.h), and so does the way
# std::fma is computed; the numbers must not.
#   aarch64    arm64's tile (6 x 8), cross-built with aarch64-linux-gnu-g++, run under
#              qemu-aarch64: chapters 1-6 (chapter 11 took 40 minutes under qemu)
#   x86-64-v2  no AVX and no FMA instruction (std::fma computed in software), the generic tile
#              (4 x 4): chapters 1-6
#   x86-64-v3  AVX2's tile (4 x 12), where this machine has AVX-512 (its own build: 6 x 32):
#              chapters 1-7, 12 and 13, the last three in short runs (training included)
#   windows    Windows (x86-64), cross-built with MinGW-w64 g++ (Debian's
#              x86_64-w64-mingw32-g++-posix; MSYS2 ships the same compiler), run under wine:
#              chapters 1-7 and the short runs of 12-14 compared; --check of chapters 1-6 on
#              every data file; chapter 2's Chinese narration byte for byte; and what a Chinese
#              Windows reader does: a prompt 《静夜思》, data and --save in a folder named 张三 (the
#              second save replaces the first), a data file and a corpus with CRLF line endings.
# Each build makes only the programs its comparison runs, at the same -O3 as this one. A target
# whose tools are missing is named in one line and not counted (the Makefile installs
# g++-aarch64-linux-gnu, qemu-user, g++-mingw-w64-x86-64-posix and wine64 where apt-get can).
# Not compared: the C library's exp, log, sin, cos, pow and tanh are the machine's own. glibc
# computes them alike on x86-64 (with or without FMA: it chooses by the CPU it runs on, not by
# the build) and on arm64, but another C library (macOS's) may differ in a last bit (README.md).
# usage: CXX=… tests/cross_machines.sh BUILD_DIR   (BUILD_DIR: this machine's build)
# Prints a line per target and chapter, then "cross-machine: N passed, N failed".
set -u
build=$1
cxx=${CXX:-g++}
passed=0; failed=0
first6="ch01_dictionary_lookup ch02_self_attention ch03_masked_attention ch04_multi_head_attention ch05_positional_encoding ch06_encoder_decoder"

# The flags of a chapter's short run, as the test suite's (tests/helpers.cpp quick_flags).
flags_of() {
  case $1 in
    ch07_training) echo "--steps 60";;
    ch12_gpt) echo "--corpus tests/data/tang_sample.txt --steps 40 --poems 3";;
    ch13_precision) echo "--corpus tests/data/tang_sample.txt --steps 40";;
    ch14_inside_the_poet) echo "--corpus tests/data/tang_sample.txt --steps 40";;
  esac
}

# build_for TARGET CXX ARCH CHAPTER…: the chapters for another machine, into build/ARCH/
# (Windows: build/windows/, each NAME.exe). make starts afresh (not as a child of make test's own
# jobs), with the extra include folder where the cross compiler finds the header packages.
build_for() {
  local target=$1 compiler=$2 arch=$3 programs="" chapter
  shift 3
  for chapter in "$@"; do programs="$programs build/${DIR:-$arch}/$chapter${EXE:-}"; done
  # shellcheck disable=SC2086
  if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory CXX="$compiler" \
       ARCH="$arch" EXTRA_INCLUDES="${EXTRA_INCLUDES:-}" $programs > "build/$target.log" 2>&1; then
    echo "cross-machine $target: the build failed (build/$target.log):"
    tail -n 5 "build/$target.log"
    failed=$((failed + 1))
    return 1
  fi
}

# compare TARGET ARCH RUNNER CHAPTER…: each chapter's --json there against this build's.
compare() {
  local target=$1 arch=$2 runner=$3 chapter flags out dir
  shift 3
  dir=build/$arch/compared
  mkdir -p "$dir"
  for chapter in "$@"; do
    flags=$(flags_of "$chapter")
    # shellcheck disable=SC2086
    "$build/$chapter" $flags --json > "$dir/$chapter.here.json" 2>/dev/null
    # shellcheck disable=SC2086
    $runner "build/$arch/$chapter${EXE:-}" $flags --json > "$dir/$chapter.json" 2>"$dir/$chapter.err"
    if out=$("$build/same_numbers" "$dir/$chapter.here.json" "$dir/$chapter.json"); then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
    fi
    echo "cross-machine $target: $chapter${flags:+ $flags}: $out"
  done
}

# The header packages live in /usr/include, which a cross compiler does not search (it holds
# this machine's C library too): a folder with only them, build/NAME-include.
header_folder() {
  mkdir -p "build/$1-include"
  for h in nlohmann doctest; do
    [ -e /usr/include/$h ] && ln -sfn /usr/include/$h "build/$1-include/$h"
  done
  echo "build/$1-include"
}

# arm64, under qemu
if command -v aarch64-linux-gnu-g++ >/dev/null && command -v qemu-aarch64 >/dev/null; then
  # shellcheck disable=SC2086
  EXTRA_INCLUDES="-isystem $(header_folder aarch64)" build_for aarch64 aarch64-linux-gnu-g++ armv8-a $first6 &&
    compare aarch64 armv8-a "qemu-aarch64 -L /usr/aarch64-linux-gnu" $first6
else
  echo "cross-machine aarch64: not run: no aarch64-linux-gnu-g++ or qemu-aarch64 (apt-get install g++-aarch64-linux-gnu qemu-user)"
fi

case $(uname -m) in
  x86_64)
    # shellcheck disable=SC2086
    build_for x86-64-v2 "$cxx" x86-64-v2 $first6 && compare x86-64-v2 x86-64-v2 "" $first6
    if grep -qw avx512f /proc/cpuinfo 2>/dev/null && grep -qw avx2 /proc/cpuinfo; then
      more="$first6 ch07_training ch12_gpt ch13_precision ch14_inside_the_poet"
      # shellcheck disable=SC2086
      build_for x86-64-v3 "$cxx" x86-64-v3 $more && compare x86-64-v3 x86-64-v3 "" $more
    else
      echo "cross-machine x86-64-v3: not run: this machine has no AVX-512, so its own build is the AVX2 one"
    fi;;
  *) echo "cross-machine x86-64: not run on $(uname -m)";;
esac

# Windows, under wine
windows=x86_64-w64-mingw32-g++-posix
if command -v $windows >/dev/null && command -v wine >/dev/null; then
  more="$first6 ch07_training ch12_gpt ch13_precision ch14_inside_the_poet"
  # one wine prefix for the build folder: made by the first start (about 20 s), then reused
  export WINEPREFIX="$PWD/build/windows/wine" WINEDEBUG=-all
  # shellcheck disable=SC2086
  if DIR=windows EXE=.exe EXTRA_INCLUDES="-isystem $(header_folder windows)" build_for windows $windows native $more; then
    # shellcheck disable=SC2086
    EXE=.exe compare windows windows wine $more
    source tests/windows_reader.sh
    windows_reader "$build" build/windows
  fi
else
  echo "cross-machine windows: not run: no $windows or wine (apt-get install g++-mingw-w64-x86-64-posix wine64)"
fi

echo "cross-machine: $passed passed, $failed failed"
[ "$failed" = 0 ]
