#!/usr/bin/env bash
# Rewrites the measured figures of the documentation from the programs themselves, so that no
# figure there is typed by hand: every block
#
#   <!-- output: ch10_modern_attention [flags] | table Which positions -->
#   ```text
#   …
#   ```
#   <!-- /output -->
#
# is replaced by what the program prints, selected by one of
#   step TEXT    the whole step whose heading contains TEXT
#   table TEXT   the first table of that step (its header, its rule, its rows)
#   match TEXT   every line that contains TEXT
#   chart TEXT   the line that contains TEXT and the lines after it, up to a blank line
#   lines N TEXT the line that contains TEXT and the N − 1 lines after it (a paragraph of N lines)
# Each program runs once per set of flags and language (a document named *.zh-CN.md is in
# Chinese, its TEXT too; the others in English), on the build the Makefile gives, and the
# documents are written whole or not at all. `make figures` runs it.
# usage: tests/refresh_outputs.sh BUILD_DIR DOC...
set -euo pipefail
build=$1; shift
export LC_ALL=C
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT

run_once() {  # the output of "program flags" in language $2, run the first time it is asked for
  local key; key=$(printf '%s %s' "$1" "$2" | md5sum | cut -c1-16)
  if [ ! -e "$cache/$key" ]; then
    echo "running $build/$1 --lang $2" >&2
    # shellcheck disable=SC2086
    "$build"/$1 --lang "$2" > "$cache/$key" 2>/dev/null || { echo "error: $1 failed" >&2; exit 1; }
  fi
  cat "$cache/$key"
}

select_from() {  # $1: how (step, table, …), $2: TEXT; the program's output on stdin
  local how=$1 count=0
  if [[ $how == lines\ * ]]; then count=${how#lines }; how=lines; fi
  awk -v how="$how" -v text="$2" -v count="$count" '
    how == "match" { if (index($0, text)) print; next }
    how == "lines" {
      if (!started && index($0, text)) started = 1
      if (started && printed < count) { print; printed++ }
      next
    }
    how == "chart" {
      if (!started && index($0, text)) started = 1
      if (!started || finished) next
      if ($0 == "") { finished = 1; next }
      print
      next
    }
    /^== / { inside = index($0, text) > 0; next }
    !inside || done { next }
    how == "step" { print; next }
    {  # table: the header lines just above the rule, the rule, the rows below it
      lines[n++] = $0
      if (!ruled && $0 ~ /^   -+$/) {
        ruled = 1
        h = n - 1
        while (h > 0 && lines[h - 1] ~ /^   /) h--
        for (i = h; i < n; i++) print lines[i]
      } else if (ruled) {
        if ($0 ~ /^   /) print; else done = 1
      }
    }
  '
}

for doc in "$@"; do
  lang=en; [[ $doc == *zh-CN.md ]] && lang=zh
  out=$(mktemp "$doc.XXXXXX")
  skipping=0
  while IFS= read -r line; do
    if [[ $line =~ ^\<\!--\ output:\ (.*)\ \|\ (step|table|match|chart|lines [0-9]+)\ (.*)\ --\>$ ]]; then
      program=${BASH_REMATCH[1]}; how=${BASH_REMATCH[2]}; text=${BASH_REMATCH[3]}
      printf '%s\n```text\n' "$line" >> "$out"
      selected=$(run_once "$program" "$lang" | select_from "$how" "$text" | sed 's/[[:space:]]*$//')
      [ -n "$selected" ] || { echo "error: $doc: nothing of '$how $text' in $program" >&2; rm -f "$out"; exit 1; }
      printf '%s\n```\n' "$selected" >> "$out"
      skipping=1
      continue
    fi
    if [ "$skipping" = 1 ]; then
      [ "$line" = "<!-- /output -->" ] && { skipping=0; printf '%s\n' "$line" >> "$out"; }
      continue
    fi
    printf '%s\n' "$line" >> "$out"
  done < "$doc"
  [ "$skipping" = 0 ] || { echo "error: $doc: an output block without its <!-- /output -->" >&2; rm -f "$out"; exit 1; }
  mv "$out" "$doc"
  echo "refreshed $doc"
done
