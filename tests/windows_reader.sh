# tests/windows_reader.sh — sourced by tests/cross_machines.sh once the Windows build is made:
# what a Chinese reader on Windows does, run under wine, each result beside this machine's.
#   windows_reader BUILD_DIR WINDOWS_DIR
# Adds to cross_machines.sh's passed and failed counts; one line per check.
#
# Under wine the command line is decoded from this machine's locale (UTF-8 here), as a Windows
# console hands it over in UTF-16: the programs read it again as UTF-8 (io/platform.cpp), not
# in the ANSI code page (936 on a Chinese Windows), so 《静夜思》 and 张三 arrive whole.
windows_check() {  # windows_check WHAT OK DETAIL: one counted line
  if [ "$2" = yes ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  echo "cross-machine windows: $1: $3"
}

windows_reader() {
  local build=$1 dir=$2 chapter f out rc ok
  local here=$dir/reader zhang=$dir/reader/张三
  rm -rf "$here" && mkdir -p "$zhang"
  # how wine decodes the arguments into the UTF-16 command line: as UTF-8 (make test runs with
  # LC_ALL=C, under which wine would read 张三 as bytes); the narration's language is --lang's
  export LC_ALL=C.UTF-8

  # --check on every data file of chapters 1-6
  for chapter in $first6; do
    for f in "" tests/data/"$chapter".*.json; do
      [ -n "$f" ] && [ ! -e "$f" ] && continue
      out=$(wine "$dir/$chapter.exe" ${f:+--data "$f"} --check 2>&1); rc=$?
      out=$(tail -n 1 <<<"$out")
      ok=no; [ "$rc" = 0 ] && grep -qE ': [0-9]+ passed, 0 failed' <<<"$out" && ok=yes
      windows_check "$chapter --check${f:+ --data $f}" $ok "$out"
    done
  done

  # chapter 2's Chinese narration, byte for byte (one thread here too: the thread count is named)
  OMP_NUM_THREADS=1 "$build/ch02_self_attention" --lang zh > "$here/ch02.zh.here.txt" 2>&1
  wine "$dir/ch02_self_attention.exe" --lang zh > "$here/ch02.zh.txt" 2>&1
  ok=no; cmp -s "$here/ch02.zh.here.txt" "$here/ch02.zh.txt" && ok=yes
  windows_check "ch02_self_attention --lang zh" $ok \
    "$([ $ok = yes ] && echo "the same $(wc -c < "$here/ch02.zh.txt") bytes" || echo "differs: diff $here/ch02.zh.here.txt $here/ch02.zh.txt")"

  # no LANG, LC_ALL or LC_MESSAGES, a Chinese Windows (wine takes its display language from the
  # locale it starts in; cmd then clears the variables for the program): Chinese narration
  OMP_NUM_THREADS=1 "$build/ch01_dictionary_lookup" --lang zh > "$here/ch01.zh.here.txt" 2>&1
  LC_ALL=zh_CN.UTF-8 wine cmd /c "set LC_ALL=&& set LANG=&& set LC_MESSAGES=&& ${dir//\//\\}\\ch01_dictionary_lookup.exe" \
    > "$here/ch01.windows-locale.txt" 2>&1
  ok=no; cmp -s "$here/ch01.zh.here.txt" "$here/ch01.windows-locale.txt" && ok=yes
  windows_check "ch01 without LANG on a Chinese Windows" $ok \
    "$([ $ok = yes ] && echo "the same bytes as --lang zh here: $(head -n 2 "$here/ch01.windows-locale.txt" | tail -n 1 | sed 's/ *=*$//')" || echo "not the --lang zh narration: diff $here/ch01.zh.here.txt $here/ch01.windows-locale.txt")"

  # a data file with CRLF line endings, in a folder named 张三: the same check as with LF
  sed 's/$/\r/' data/ch01_dictionary_lookup.json > "$zhang/ch01.crlf.json"
  out=$(wine "$dir/ch01_dictionary_lookup.exe" --data "$zhang/ch01.crlf.json" --check 2>&1); rc=$?
  out=$(tail -n 1 <<<"$out")
  ok=no; [ "$rc" = 0 ] && grep -qE ': [0-9]+ passed, 0 failed' <<<"$out" && ok=yes
  windows_check "ch01 --data 张三/ch01.crlf.json --check" $ok "$out"

  # pictures written twice into 张三: the second replaces the first, no temporary left behind
  wine "$dir/ch03_masked_attention.exe" --svg "$zhang" > /dev/null 2>&1 &&
    wine "$dir/ch03_masked_attention.exe" --svg "$zhang" > "$here/svg.txt" 2>&1; rc=$?
  "$build/ch03_masked_attention" --svg "$here" > /dev/null 2>&1
  ok=no
  if [ "$rc" = 0 ] && [ -z "$(find "$zhang" -name '.*.tmp.*')" ]; then
    ok=yes
    for f in "$here"/*.svg; do cmp -s "$f" "$zhang/$(basename "$f")" || ok=no; done
  fi
  windows_check "ch03 --svg 张三, twice" $ok \
    "$([ $ok = yes ] && echo "the same bytes as here, $(ls "$zhang"/*.svg | wc -l) pictures" || echo "$(ls "$zhang"/*.svg 2>/dev/null | wc -l) pictures, not as here (status $rc)")"

  # chapter 12 as a Chinese reader runs it: a CRLF corpus and the saved poet in 张三, over a file
  # already there, a Chinese prompt; the saved model the same numbers as this machine's, which
  # reads the same files (the paths are recorded in it)
  local quick="--steps 40 --poems 1 --prompt 《静夜思》"
  sed 's/$/\r/' tests/data/tang_sample.txt > "$zhang/唐诗.txt"
  echo "an older file, to be replaced" > "$zhang/poet.json"
  # shellcheck disable=SC2086
  wine "$dir/ch12_gpt.exe" --lang zh --corpus "$zhang/唐诗.txt" $quick --save "$zhang/poet.json" \
    > "$here/ch12.zh.txt" 2>&1; rc=$?
  ok=no; [ "$rc" = 0 ] && grep -q '《静夜思》' "$here/ch12.zh.txt" && ok=yes
  windows_check "ch12 --lang zh --prompt 《静夜思》" $ok \
    "$([ $ok = yes ] && echo "the same prompt back: $(grep -m1 '《静夜思》' "$here/ch12.zh.txt" | sed 's/^ *//')" || echo "not echoed (status $rc): $here/ch12.zh.txt")"
  # shellcheck disable=SC2086
  "$build/ch12_gpt" --corpus "$zhang/唐诗.txt" $quick --save "$here/poet.json" > /dev/null 2>&1
  out=$("$build/same_numbers" "$here/poet.json" "$zhang/poet.json"); rc=$?
  ok=no; [ "$rc" = 0 ] && [ -z "$(find "$zhang" -name '.*.tmp.*')" ] && ok=yes
  windows_check "ch12 --corpus 张三/唐诗.txt (CRLF) --save 张三/poet.json, over an older file" $ok "$out"

  # the poet read back from 张三 (--weights): the same poem as here
  "$build/ch12_gpt" --weights "$zhang/poet.json" --corpus "$zhang/唐诗.txt" --poems 1 \
    --prompt 《静夜思》 --json > "$here/ch12.weights.here.json" 2>/dev/null
  wine "$dir/ch12_gpt.exe" --weights "$zhang/poet.json" --corpus "$zhang/唐诗.txt" --poems 1 \
    --prompt 《静夜思》 --json > "$here/ch12.weights.json" 2>"$here/ch12.weights.err"
  out=$("$build/same_numbers" "$here/ch12.weights.here.json" "$here/ch12.weights.json"); rc=$?
  ok=no; [ "$rc" = 0 ] && ok=yes
  windows_check "ch12 --weights 张三/poet.json --prompt 《静夜思》 --json" $ok "$out"
}
