#!/usr/bin/env bash
# Runs the doctest suite, then every chapter with --check, and sums up every check in one
# closing line "N passed, N failed". Exit status 0 only when nothing failed.
# usage: tests/run_all.sh BUILD_DIR CHAPTER...
set -u
export LC_ALL=C  # the programs narrate in English whatever the locale
build=$1; shift
passed=0; failed=0; status=0
problems=()  # repeated just before the closing line, where a log's tail shows them

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

# doctest ends with "[doctest] assertions: 212 | 212 passed | 0 failed |". Under the sanitizers
# (SANITIZERS=1, make SAN=1 test) the test suite "native" is left out: the tests that run the
# programs over and over (every flag, the book, idle and busy machines) or train on 1, 2 and 3
# threads, 16 of the sanitizers' 20 minutes; make test ran them in the native build. What the
# sanitizers watch stays: the library's tests, every walkthrough in both languages, the smallest
# shapes, the damaged files, and every chapter's --check below.
doctest_flags=()
if [ "${SANITIZERS:-0}" = 1 ]; then
  doctest_flags=(--test-suite-exclude=native)
  echo "tests: under the sanitizers, without the test suite \"native\" (run by make test)"
fi
out=$("$build/tests" ${doctest_flags[@]+"${doctest_flags[@]}"} 2>&1); rc=$?
[ "$rc" = 0 ] || status=1
echo "$out"
line=$(grep '^\[doctest\] assertions:' <<<"$out" | tail -n 1)
if [ -z "$line" ]; then
  problems+=("tests: the doctest suite printed no summary and exited with status $rc; its last lines:"
             "$(tail -n 25 <<<"$out")")
  failed=$((failed + 1)); status=1
else
  [ "$rc" = 0 ] || problems+=("tests: failed checks (the first 20):" "$(grep -F ': ERROR:' <<<"$out" | head -n 20)")
  passed=$((passed + $(sed -E 's/.*\| *([0-9]+) passed.*/\1/' <<<"$line")))
  failed=$((failed + $(sed -E 's/.*\| *([0-9]+) failed.*/\1/' <<<"$line")))
fi

# the bench, run once in its smallest form: "bench --smoke: 26 figures …, 0 not a positive number"
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
