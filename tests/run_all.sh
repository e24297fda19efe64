#!/usr/bin/env bash
# Runs the doctest suite, then every chapter with --check, and sums up every check in one
# closing line "N passed, N failed". Exit status 0 only when nothing failed.
# usage: tests/run_all.sh BUILD_DIR CHAPTER...
set -u
export LC_ALL=C  # the programs narrate in English whatever the locale
build=$1; shift
passed=0; failed=0; status=0
problems=()  # repeated just before the closing line, where a log's tail shows them

# The checks of the sources themselves (their layering, the figures their comments quote, the
# sizes of files and functions, no two files calling each other): the same files whatever the
# build, so make SAN=1 test, which follows make test in CI, leaves them to it.
if [ "${SANITIZERS:-0}" = 1 ]; then
  echo "sources: the layering, the figures, the sizes and the calls are checked by make test"
else
  # the layering of src/: each file whose includes keep to its layer passes
  out=$(bash tests/check_layers.sh src) || status=1
  echo "$out"
  files=$(sed -nE 's/^layering: ([0-9]+) files, ([0-9]+) offending.*/\1/p' <<<"$out")
  offending=$(sed -nE 's/^layering: ([0-9]+) files, ([0-9]+) offending.*/\2/p' <<<"$out")
  passed=$((passed + ${files:-0} - $(grep -c '^src/' <<<"$out" || true)))
  failed=$((failed + ${offending:-1}))

  # comments that quote a timing (tests/check_figures.sh): each file that quotes none passes
  out=$(bash tests/check_figures.sh src) || status=1
  echo "$out"
  files=$(sed -nE 's/^figures: ([0-9]+) files, ([0-9]+) comments.*/\1/p' <<<"$out")
  quoting=$(sed -nE 's/^figures: ([0-9]+) files, ([0-9]+) comments.*/\2/p' <<<"$out")
  passed=$((passed + ${files:-0} - $(grep '^src/' <<<"$out" | cut -d: -f1 | sort -u | wc -l)))
  failed=$((failed + ${quoting:-1}))

  # the sizes (tests/check_sizes.sh): each file of chapters/ and src/ within 600 lines with every
  # function within 60 passes
  out=$(bash tests/check_sizes.sh chapters src) || status=1
  echo "$out"
  files=$(sed -nE 's/^sizes: ([0-9]+) files, ([0-9]+) functions, ([0-9]+) too.*/\1/p' <<<"$out")
  long=$(sed -nE 's/^sizes: ([0-9]+) files, ([0-9]+) functions, ([0-9]+) too.*/\3/p' <<<"$out")
  passed=$((passed + ${files:-0} - $(grep -E '^(chapters|src)/' <<<"$out" | cut -d: -f1 | sort -u | wc -l)))
  failed=$((failed + ${long:-1}))

  # how far each header of src/model/ (and text/translate.h) reaches (tests/check_reach.sh, from
  # the build's dependency files): each header within its ceiling passes
  out=$(bash tests/check_reach.sh "$build") || status=1
  echo "$out" | grep -v '^    '
  headers=$(sed -nE 's/^reach: ([0-9]+) headers, ([0-9]+) past.*/\1/p' <<<"$out")
  past=$(sed -nE 's/^reach: ([0-9]+) headers, ([0-9]+) past.*/\2/p' <<<"$out")
  passed=$((passed + ${headers:-0} - ${past:-0}))
  failed=$((failed + ${past:-1}))
  [ "${past:-1}" = 0 ] || problems+=("headers past their ceiling (tests/check_reach.sh):" "$out")

  # the GitHub workflows run README's commands, and actionlint finds nothing in them
  # (tests/check_workflows.sh): each workflow step that is a README command passes, and the lint
  out=$(bash tests/check_workflows.sh . build) || status=1
  echo "$out"
  steps=$(sed -nE 's/^workflows: ([0-9]+) files and 2 issue forms, ([0-9]+) steps, ([0-9]+) problems.*/\2/p' <<<"$out")
  wrong=$(sed -nE 's/^workflows: ([0-9]+) files and 2 issue forms, ([0-9]+) steps, ([0-9]+) problems.*/\3/p' <<<"$out")
  passed=$((passed + ${steps:-0} - ${wrong:-0})); failed=$((failed + ${wrong:-1}))
  if grep -q '^actionlint: [0-9]* workflows, 0 problems' <<<"$out"; then passed=$((passed + 1))
  elif grep -q '^actionlint:' <<<"$out"; then failed=$((failed + 1)); problems+=("actionlint:" "$out"); fi
  [ "${wrong:-1}" = 0 ] || problems+=("workflow steps that are not README's commands (tests/check_workflows.sh):" "$out")

  # no two files of src/ calling each other (tests/check_calls.sh, from the build's objects):
  # each file that calls none of the files calling it passes
  out=$(bash tests/check_calls.sh "$build") || status=1
  echo "$out"
  if ! grep -q '^calls: skipped' <<<"$out"; then
    files=$(sed -nE 's/^calls: ([0-9]+) files, ([0-9]+) pairs.*/\1/p' <<<"$out")
    pairs=$(sed -nE 's/^calls: ([0-9]+) files, ([0-9]+) pairs.*/\2/p' <<<"$out")
    passed=$((passed + ${files:-0} - 2 * ${pairs:-0}))
    failed=$((failed + ${pairs:-1}))
  fi
fi

# doctest ends with "[doctest] assertions: 212 | 212 passed | 0 failed |". Under the sanitizers
# (SANITIZERS=1, make SAN=1 test) the test suite "native" is left out: the tests that run the
# programs over and over (every flag, the book, idle and busy machines, every line's width) or
# train on 1, 2 and 3 threads; make test ran them in the native build. What the sanitizers watch
# stays: the library's tests, every walkthrough in both languages at the smallest shapes, the
# damaged files, and every chapter's --check below.
doctest_flags=()
if [ "${SANITIZERS:-0}" = 1 ]; then
  doctest_flags=(--test-suite-exclude=native)
  echo "tests: under the sanitizers, without the test suite \"native\" (run by make test)"
fi
# The suite runs as two processes at once, one per core (most of its time is spent running the
# programs one after another): the files of SHARD_ONE in one, every other file in the other
# (-sfe: none left out). Each test keeps to its own temporary folder, so the two never meet, and
# no test reads the clock: one that runs a chapter beside a busy machine (test_same_numbers.cpp)
# compares CPU time, which the other shard's load does not change.
SHARD_ONE='*test_fuzz.cpp,*test_small_inputs.cpp,*test_terminal_width.cpp,*test_book.cpp,*test_reader_trips_5.cpp'
shards=$(mktemp -d)
"$build/tests" ${doctest_flags[@]+"${doctest_flags[@]}"} -sf="$SHARD_ONE" > "$shards/1" 2>&1 &
one=$!
"$build/tests" ${doctest_flags[@]+"${doctest_flags[@]}"} -sfe="$SHARD_ONE" > "$shards/2" 2>&1 &
two=$!
wait $one; rc1=$?
wait $two; rc2=$?
for shard in 1 2; do
  rc_var="rc$shard"; rc=${!rc_var}
  out=$(cat "$shards/$shard")
  [ "$rc" = 0 ] || status=1
  echo "$out"
  line=$(grep '^\[doctest\] assertions:' <<<"$out" | tail -n 1)
  if [ -z "$line" ]; then
    problems+=("tests (part $shard of 2): the doctest suite printed no summary and exited with status $rc; its last lines:"
               "$(tail -n 25 <<<"$out")")
    failed=$((failed + 1)); status=1
  else
    [ "$rc" = 0 ] || problems+=("tests (part $shard of 2): failed checks (the first 20):" "$(grep -F ': ERROR:' <<<"$out" | head -n 20)")
    passed=$((passed + $(sed -E 's/.*\| *([0-9]+) passed.*/\1/' <<<"$line")))
    failed=$((failed + $(sed -E 's/.*\| *([0-9]+) failed.*/\1/' <<<"$line")))
  fi
done
rm -rf "$shards"

# the bench, run once in its smallest form: "bench --smoke: 32 figures …, 0 not a positive number"
if [ -x "$build/bench" ]; then
  out=$("$build/bench" "$build" --smoke 2>&1); rc=$?
  echo "$out"
  if [ "$rc" = 0 ]; then passed=$((passed + 1)); else
    failed=$((failed + 1)); status=1; problems+=("bench --smoke failed (status $rc):" "$out"); fi
fi

# each chapter ends with "chNN_name --check: 87 passed, 0 failed (...)"; it runs on its own
# data file and on the oracle's other data files of the same schema in tests/data/
runs=()
for chapter in "$@"; do
  runs+=("$chapter")
  for f in tests/data/"$chapter".*.json; do [ -e "$f" ] && runs+=("$chapter --data $f"); done
done
for run in ${runs[@]+"${runs[@]}"}; do
  chapter=${run%% *}
  # shellcheck disable=SC2086
  out=$("$build"/$run --check 2>&1) || status=1
  echo "$out"
  line=$(grep -E '^[a-z0-9_]+ --check: [0-9]+ passed, [0-9]+ failed' <<<"$out" | tail -n 1)
  if [ -z "$line" ]; then
    problems+=("$run --check printed no summary; its last lines:" "$(tail -n 10 <<<"$out")")
    failed=$((failed + 1)); status=1
  else
    passed=$((passed + $(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$line")))
    failed=$((failed + $(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")))
  fi
done

echo
# (written so for bash 3.2, macOS's, where an empty array is "unbound" under set -u)
for p in ${problems[@]+"${problems[@]}"}; do echo "$p"; done
echo "$passed passed, $failed failed"
[ "$status" = 0 ] && [ "$failed" = 0 ]
