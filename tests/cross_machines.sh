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
#   plain      this machine with every product through core/matmul.cpp's plain loop (make
#              PLAIN=1: no register tile at all): chapters 1-7, 12, 13 and 14, the last four in
#              short runs (training included)
#   wasm       WebAssembly (32-bit size_t and long, no OpenMP, no FMA instruction, musl's C
#              library): the live book's module (make web, build/book/live/live_book.js) run
#              under node as its page runs it: the chapters that run in a browser, on every data
#              file of each (data/ and tests/data/) and on 20 random edits of its shipped one —
#              chapters 1-6 their --json compared, on the data files also their --check and
#              their narration byte for byte in both languages; chapters 9 and 11 (which train or
#              count memory when run in full) their --check. Then the live pages in headless
#              chromium (tests/web/browser_test.js).
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
# (Windows: build/windows/, each NAME.exe); LIB_FOR="CHAPTER…" builds a library of only what
# those chapters need (the Makefile follows their #includes). make starts afresh (not as a
# child of make test's own jobs), with the extra include folder where the cross compiler finds
# the header packages.
build_for() {
  local target=$1 compiler=$2 arch=$3 programs="" chapter
  shift 3
  for chapter in "$@"; do programs="$programs build/${DIR:-$arch}/$chapter${EXE:-}"; done
  # shellcheck disable=SC2086
  if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory CXX="$compiler" \
       ARCH="$arch" EXTRA_INCLUDES="${EXTRA_INCLUDES:-}" LIB_FOR="${LIB_FOR:-}" PLAIN="${PLAIN:-}" \
       $programs > "build/$target.log" 2>&1; then
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
    # wine's own server can drop a connection ("wine client error"), or end a run before the
    # program has written anything (no output and no error line: a chapter always writes one or
    # the other; seen once in a CI run, never again in the same place): that is wine's fault,
    # not the program's, and the run is tried once more (said in a line); a program that really
    # writes nothing fails the second time too
    if [ "$runner" = wine ] && [ ! -s "$dir/$chapter.json" ] &&
       { grep -q "wine client error" "$dir/$chapter.err" || [ ! -s "$dir/$chapter.err" ]; }; then
      echo "cross-machine $target: $chapter: wine gave no output ($(head -n 1 "$dir/$chapter.err" | grep . || echo 'and no error line')); once more"
      # shellcheck disable=SC2086
      $runner "build/$arch/$chapter${EXE:-}" $flags --json > "$dir/$chapter.json" 2>"$dir/$chapter.err"
    fi
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

# The WebAssembly build starts first, in the background at the lowest priority: it takes the
# cycles the other targets leave idle (qemu and wine run one program at a time), and its
# comparison, last, waits for it. What is built is what the live book's pages run: the module
# of build/book/live/live_book.js (make web).
web="$first6 ch09_decoding ch11_long_sequences"
wasm_build=""
if command -v em++ >/dev/null && command -v node >/dev/null; then
  (renice -n 19 $BASHPID >/dev/null 2>&1
   env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory CXX=em++ \
     build/book/live/live_book.js build/book/live/live_poet.js build/book/live/live_page.js \
     > build/wasm.log 2>&1) &
  wasm_build=$!
fi

# arm64, under qemu
if command -v aarch64-linux-gnu-g++ >/dev/null && command -v qemu-aarch64 >/dev/null; then
  # shellcheck disable=SC2086
  LIB_FOR="$first6" EXTRA_INCLUDES="-isystem $(header_folder aarch64)" build_for aarch64 aarch64-linux-gnu-g++ armv8-a $first6 &&
    compare aarch64 armv8-a "qemu-aarch64 -L /usr/aarch64-linux-gnu" $first6
else
  echo "cross-machine aarch64: not run: no aarch64-linux-gnu-g++ or qemu-aarch64 (apt-get install g++-aarch64-linux-gnu qemu-user)"
fi

case $(uname -m) in
  x86_64)
    # shellcheck disable=SC2086
    LIB_FOR="$first6" build_for x86-64-v2 "$cxx" x86-64-v2 $first6 && compare x86-64-v2 x86-64-v2 "" $first6
    if grep -qw avx512f /proc/cpuinfo 2>/dev/null && grep -qw avx2 /proc/cpuinfo; then
      more="$first6 ch07_training ch12_gpt ch13_precision ch14_inside_the_poet"
      # shellcheck disable=SC2086
      build_for x86-64-v3 "$cxx" x86-64-v3 $more && compare x86-64-v3 x86-64-v3 "" $more
    else
      echo "cross-machine x86-64-v3: not run: this machine has no AVX-512, so its own build is the AVX2 one"
    fi;;
  *) echo "cross-machine x86-64: not run on $(uname -m)";;
esac

# This machine, every product through the plain loop (make PLAIN=1): the fast loops plugged in
# under matmul() must give its numbers, bit for bit, in the chapters and in training
plain="$first6 ch07_training ch12_gpt ch13_precision ch14_inside_the_poet"
# shellcheck disable=SC2086
PLAIN=1 DIR=plain build_for plain "$cxx" native $plain && compare plain plain "" $plain

# Windows, under wine
windows=x86_64-w64-mingw32-g++-posix
if command -v $windows >/dev/null && command -v wine >/dev/null; then
  more="$first6 ch07_training ch12_gpt ch13_precision ch14_inside_the_poet"
  # one wine prefix for the build folder: made by the first start (about 20 s), then reused
  export WINEPREFIX="$PWD/build/windows/wine" WINEDEBUG=-all
  # One wineserver for all the runs, kept (-p) until the end, and Windows' services started once
  # by wineboot, away from any output of ours (a service started by a run would hold that run's
  # output open): each run then starts in a fifth of a second instead of the 2–5 seconds of a
  # wineserver and services started anew (about 30 runs: two minutes of CI).
  mkdir -p "$WINEPREFIX"
  wineserver -p </dev/null >/dev/null 2>&1 && wine wineboot </dev/null >/dev/null 2>&1
  trap 'wineserver -k </dev/null >/dev/null 2>&1' EXIT
  # shellcheck disable=SC2086
  if DIR=windows EXE=.exe EXTRA_INCLUDES="-isystem $(header_folder windows)" build_for windows $windows native $more; then
    # shellcheck disable=SC2086
    EXE=.exe compare windows windows wine $more
    source tests/windows_reader.sh
    windows_reader "$build" build/windows
  fi
  wineserver -k </dev/null >/dev/null 2>&1; trap - EXIT
else
  echo "cross-machine windows: not run: no $windows or wine (apt-get install g++-mingw-w64-x86-64-posix wine64)"
fi

# WebAssembly, under node, through the live book's own runner (tests/web/live_book_node.js: the
# module compiled once, a fresh copy for every run, as the page's Web Worker does). Compared with
# this build on one thread (the narration says how many), on every data file of each chapter
# and on 20 random edits of its shipped one (tests/web/random_edits.js: one to three numbers of
# the inputs moved, as a reader does in the panel): chapters 1-6 their --json, and on the data
# files their --check and their narration in English and Chinese, byte for byte, standard output
# and error apart, and the exit status; chapters 9 and 11 (which train or count memory when run
# in full) their --check, whose mismatch table prints edited results in 17 digits.
if [ -n "$wasm_build" ]; then
  if wait "$wasm_build" || { echo "cross-machine wasm: the build failed (build/wasm.log):"
                             tail -n 5 build/wasm.log; failed=$((failed + 1)); false; }; then
    dir=build/wasm/compared
    rm -rf "$dir"; mkdir -p "$dir/edits"
    runs=()  # "chapter data mode": mode json, check, en or zh
    for chapter in $web; do
      for data in "data/$chapter.json" tests/data/"$chapter".*.json \
                  $(node tests/web/random_edits.js "data/$chapter.json" 20 2026 "$dir/edits"); do
        [ -e "$data" ] || continue
        case $chapter:$data in
          ch09*|ch11*) runs+=("$chapter $data check");;
          *:*edits*)   runs+=("$chapter $data json");;
          *)           runs+=("$chapter $data check" "$chapter $data json" "$chapter $data en" "$chapter $data zh");;
        esac
      done
    done
    # the poet's pages: chapter 12 writes (--write) and chapter 14 reads a poem (--poem) with a
    # small poet rounded to bfloat16 as make book rounds the real one, its narration in both
    # languages and its --json; "the prompt|the poem", each run's arguments after the chapter's
    poet="$dir/poet/model.json"
    sounds=tests/data/tang_sample.pinyin.txt; tang=tests/data/tang_sample.tang.txt
    mkdir -p "$dir/poet"
    "$build/ch12_gpt" --write --weights tests/data/small_poet.json --bfloat16 --save "$poet" > /dev/null
    # and the same poet untied, as chapter 12's defined run is: an output table of its own (the
    # embedding's columns turned one place), read by the output, not by the embedding
    untied="$dir/poet/untied.json"
    node -e 'const m = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
             m.config.tied_output = false;
             m.weights["output.weight"] = m.weights["embedding.weight"].map((r) => r.slice(1).concat(r.slice(0, 1)));
             process.stdout.write(JSON.stringify(m));' tests/data/small_poet.json > "$dir/poet/untied64.json"
    "$build/ch12_gpt" --write --weights "$dir/poet/untied64.json" --bfloat16 --save "$untied" > /dev/null
    poet_runs=()  # "NAME MODE ARGS…" (no argument holds a space)
    for mode in en zh json; do
      poet_runs+=("untied1.$mode $mode ch12_gpt --write --weights $untied --pinyin $sounds --tang $tang --prompt 《春晓》"
                  "untied2.$mode $mode ch14_inside_the_poet --poem 月 --weights $untied")
      poet_runs+=("write1.$mode $mode ch12_gpt --write --weights $poet --pinyin $sounds --tang $tang --prompt 《春晓》"
                  "write2.$mode $mode ch12_gpt --write --weights $poet --pinyin $sounds --tang $tang --prompt 床前明月光 --form none --seed 3 --poems 2"
                  "write3.$mode $mode ch12_gpt --write --weights $poet --pinyin $sounds --tang $tang --prompt 《静夜思》 --form runs --temperature 0.8 --top-p 0.9"
                  "poem1.$mode $mode ch14_inside_the_poet --poem 《静夜思》\\n床前明月光，疑是地上霜。\\n举头望明月，低头思故乡。 --weights $poet"
                  "poem2.$mode $mode ch14_inside_the_poet --poem 月 --weights $poet")
    done
    flags() { case $1 in json) echo --json;; check) echo --check;; *) echo "--lang $1";; esac; }
    # the runs in two lists, one node each (the other targets are done: both cores are free)
    runs_list() {  # runs_list HALF: every other run, from the HALF-th
      echo "["; sep=""; i=0
      for run in "${runs[@]}"; do
        i=$((i + 1)); [ $((i % 2)) = "$1" ] || continue
        read -r chapter data mode <<< "$run"; out="$dir/$(basename "$data" .json).$mode"
        args=""; for a in $chapter --data "$data" $(flags "$mode"); do args="$args${args:+, }\"$a\""; done
        printf '%s{"args": [%s], "files": {"%s": "%s"}, "out": "%s", "err": "%s.err"}\n' \
          "$sep" "$args" "$data" "$data" "$out" "$out"
        sep=","
      done
      echo "]"
    }
    poet_list() {  # the poet's runs, for its own module
      echo "["; sep=""
      for run in "${poet_runs[@]}"; do
        read -r name mode rest <<< "$run"; out="$dir/$name"
        args=""; for a in $rest $(flags "$mode"); do args="$args${args:+, }\"${a//\\/\\\\}\""; done
        # with the corpus the small poet's record names: ch14 --poem measures its held-out poems
        # there as here
        printf '%s{"args": [%s], "files": {"%s": "%s", "%s": "%s", "%s": "%s", "%s": "%s", "%s": "%s"}, "out": "%s", "err": "%s.err"}\n' \
          "$sep" "$args" "$poet" "$poet" "$untied" "$untied" "$sounds" "$sounds" "$tang" "$tang" \
          tests/data/tang_sample.txt tests/data/tang_sample.txt "$out" "$out"
        sep=","
      done
      echo "]"
    }
    runs_list 0 > "$dir/runs0.json"; runs_list 1 > "$dir/runs1.json"; poet_list > "$dir/poet_runs.json"
    node tests/web/live_book_node.js build/book/live/live_book.js --runs "$dir/runs0.json" &
    wasm_runs0=$!
    (node tests/web/live_book_node.js build/book/live/live_book.js --runs "$dir/runs1.json" &&
     node tests/web/live_book_node.js build/book/live/live_poet.js --runs "$dir/poet_runs.json") &
    wasm_runs1=$!
    for run in "${runs[@]}"; do
      read -r chapter data mode <<< "$run"; out="$dir/$(basename "$data" .json).$mode"
      # shellcheck disable=SC2046
      OMP_NUM_THREADS=1 "$build/$chapter" --data "$data" $(flags "$mode") > "$out.here" 2> "$out.here.err"
      echo $? > "$out.here.err.status"
    done
    for run in "${poet_runs[@]}"; do
      read -r name mode chapter rest <<< "$run"; out="$dir/$name"
      # shellcheck disable=SC2086,SC2046
      OMP_NUM_THREADS=1 "$build/$chapter" $rest $(flags "$mode") > "$out.here" 2> "$out.here.err"
      echo $? > "$out.here.err.status"
    done
    for pid in $wasm_runs0 $wasm_runs1; do
      wait "$pid" || { echo "cross-machine wasm: the runner failed"; failed=$((failed + 1)); }
    done
    same_run() {  # same_run OUT MODE: counted; the first difference said
      local why=""
      if ! cmp -s "$1.here.err.status" "$1.err.status"; then why="exit status $(cat "$1.here.err.status") here, $(cat "$1.err.status" 2>/dev/null) there"
      elif ! cmp -s "$1.here.err" "$1.err"; then why="standard error: $(diff "$1.here.err" "$1.err" | head -n 3)"
      elif [ "$2" = json ]; then
        "$build/same_numbers" "$1.here" "$1" > "$1.same" || why=$(cat "$1.same")
      elif ! cmp -s "$1.here" "$1"; then why="output: $(diff "$1.here" "$1" | head -n 4)"
      fi
      if [ -z "$why" ]; then passed=$((passed + 1)); return 0; fi
      failed=$((failed + 1)); echo "cross-machine wasm: $1: $why"; return 1
    }
    for chapter in $web; do
      files=0; same=0; edits=0; same_edits=0
      declare -A differs=()
      for run in "${runs[@]}"; do
        read -r c data mode <<< "$run"; [ "$c" = "$chapter" ] || continue
        same_run "$dir/$(basename "$data" .json).$mode" "$mode" || differs[$data]=1
      done
      for data in $(printf '%s\n' "${runs[@]}" | awk -v c="$chapter" '$1 == c { print $2 }' | uniq); do
        case $data in
          *edits*) edits=$((edits + 1)); [ -n "${differs[$data]:-}" ] || same_edits=$((same_edits + 1));;
          *) files=$((files + 1)); [ -n "${differs[$data]:-}" ] || same=$((same + 1));;
        esac
      done
      unset differs
      case $chapter in
        ch09*|ch11*) what="--check";;
        *) what="--check, --json, the narration in English and Chinese; the edits --json";;
      esac
      echo "cross-machine wasm: $chapter: $same of $files data files and $same_edits of $edits random edits the same ($what)"
    done
    same=0
    for run in "${poet_runs[@]}"; do
      read -r name mode _ <<< "$run"; same_run "$dir/$name" "$mode" && same=$((same + 1))
    done
    echo "cross-machine wasm: the poet: $same of ${#poet_runs[@]} runs the same (ch12_gpt --write, ch14_inside_the_poet --poem, with tests/data/small_poet.json in bfloat16, tied and untied: the narration in English and Chinese, --json)"
  fi
  # the live pages in a browser: Debian's chromium, headless (tests/web/browser_test.js): a
  # reader's edit, Recompute, the page's walkthrough against the native program's on the same
  # edited file, no console error; screenshots in build/wasm/screenshots
  if [ -e build/book/live/live_book.js ] && [ -e build/book/live/live_poet.js ] && command -v chromium >/dev/null; then
    book=build/wasm/browser_book
    rm -rf "$book"; mkdir -p "$book/en" "$book/zh" "$book/live"
    cp build/book/live/live_book.js build/book/live/live_poet.js build/book/live/live_page.js "$book/live/"
    for chapter in $first6 ch11_long_sequences; do
      "$build/$chapter" --html "$book/en" --live > /dev/null
    done
    # the Chinese page a reader's trip opens (the panel's labels and errors in Chinese)
    "$build/ch02_self_attention" --lang zh --html "$book/zh" --live > /dev/null
    # the poet's pages, with the small poet in bfloat16 (make book ships make run's)
    mkdir -p "$book/poet"
    "$build/ch12_gpt" --write --weights tests/data/small_poet.json --bfloat16 \
      --save "$book/poet/model.json" > /dev/null
    cp tests/data/tang_sample.pinyin.txt "$book/poet/pinyin.txt"
    cp tests/data/tang_sample.tang.txt "$book/poet/tang.txt"
    node src/web/pack_poet.js "$book/poet/model.json" "$book/poet/pinyin.txt" "$book/poet/tang.txt" \
      > "$book/live/poet.js"
    here=$(cd "$build" && pwd)
    (cd "$book" && "$here/ch12_gpt" --write --weights poet/model.json --pinyin poet/pinyin.txt \
       --tang poet/tang.txt \
       --html en --live > /dev/null &&
     "$here/ch14_inside_the_poet" --poem "$(printf '《静夜思》\n床前明月光，疑是地上霜。')" \
       --weights poet/model.json --html en --live > /dev/null)
    node tests/web/browser_test.js "$book" "$build" build/wasm/screenshots | tee build/wasm/browser.log
    read -r ok bad < <(sed -n 's/^browser: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p' build/wasm/browser.log)
    passed=$((passed + ${ok:-0})); failed=$((failed + ${bad:-1}))
  else
    echo "cross-machine browser: not run: no chromium or no live book (apt-get install chromium)"
  fi
else
  echo "cross-machine wasm: not run: no em++ or node (apt-get install emscripten)"
fi

echo "cross-machine: $passed passed, $failed failed"
[ "$failed" = 0 ]
