#!/usr/bin/env bash
# README's first experiment, "Leave out the scale", run for real: in a copy of the project (the
# build's objects copied along, so only what the change reaches is rebuilt) attention() loses its
# 1/√d_k, `make check` runs in English and in Chinese, and each chapter's summary line and make
# check's closing line replace the block between
#
#   <!-- make check: leave out the scale -->
#   ```
#   …
#   ```
#   <!-- /make check -->
#
# in README.md (English) and README.zh-CN.md (Chinese): no count there is typed by hand. The
# sentences after the block say which chapters still pass (1, 8 and 11); if a run says otherwise
# the script stops before writing, naming the chapter, for the sentences to be rewritten first.
# The reader's tree is never touched but for those two blocks. `make figures` runs it.
# usage: tests/tools/scale_experiment.sh
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -a Makefile src chapters data tests "$tmp"/
[ -d build ] && cp -a build "$tmp"/
file=src/model/attention/attention.cpp
was='attention_with_scale(Q, K, V, attention_scale(K.cols), mask)'
now='attention_with_scale(Q, K, V, 1.0, mask)'
grep -qF "$was" "$file" || { echo "error: $file: expected the line README changes, $was" >&2; exit 2; }
sed -i "s/attention_scale(K.cols), mask)/1.0, mask)/" "$tmp/$file"
grep -qF "$now" "$tmp/$file"

summary() {  # $1: LANG; make check's summary lines, each program's detail in parentheses cut
  ( cd "$tmp" && env -u LC_ALL -u LC_MESSAGES LANG="$1" make --no-print-directory check 2>/dev/null || true ) |
    grep -E -- '--check(:|：) ?[0-9]+ (passed|项通过)|^make check' | sed -E 's/ ?[(（][^()（）]*[)）]$/ (...)/'
}
echo "building the copy without the scale and running make check twice (a few minutes)" >&2
en=$(summary C.UTF-8)
zh=$(summary zh_CN.UTF-8)
# the sentences beside the block: these chapters still pass, every other fails
for ch in ch01_dictionary_lookup ch08_cost ch11_long_sequences; do
  grep -qE "^$ch --check: [0-9]+ passed, 0 failed" <<<"$en" ||
    { echo "error: $ch fails without the scale; README's sentences say it passes: rewrite them" >&2; exit 1; }
done
if grep -E -- '--check: ' <<<"$en" | grep -vE '^(ch01|ch08|ch11)_' | grep -q ', 0 failed'; then
  echo "error: a chapter passes without the scale that README's sentences say fails:" >&2
  grep -E ', 0 failed' <<<"$en" | grep -vE '^(ch01|ch08|ch11)_' >&2
  exit 1
fi

replace() {  # $1: document, $2: the block's lines
  local out; out=$(mktemp "$1.XXXXXX")
  BLOCK=$2 awk '
    /^<!-- make check: leave out the scale -->$/ { print; print "```"; print ENVIRON["BLOCK"]; print "```"; skip = 1; found = 1; next }
    /^<!-- \/make check -->$/ { skip = 0 }
    !skip { print }
    END { if (!found) exit 3 }' "$1" > "$out" || { rm -f "$out"; echo "error: $1: no block <!-- make check: leave out the scale -->" >&2; exit 2; }
  if cmp -s "$out" "$1"; then rm -f "$out"; echo "unchanged: $1" >&2
  else chmod --reference="$1" "$out" && mv "$out" "$1" && echo "rewrote $1" >&2; fi
}
replace README.md "$en"
replace README.zh-CN.md "$zh"
