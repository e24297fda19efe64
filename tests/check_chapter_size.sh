#!/usr/bin/env bash
# A chapter reads like a book's chapter: no file of chapters/ longer than 600 lines, no function
# longer than 60 (from its signature to its closing brace). A program longer than one file keeps
# its parts in a folder of its name (chapters/ch12_gpt/). A function is a definition that starts
# at the line's first column (the project's format) and ends at the first "}" there.
# Prints each file or function over its limit with where it is, and a summary line
# "chapter sizes: N files, N functions, N too long"; exit 1 if any.
# usage: tests/check_chapter_size.sh [CHAPTERS_DIR]
set -u
chapters=${1:-chapters}
max_file=600; max_function=60
files=0; functions=0; long=0
while IFS= read -r file; do
  files=$((files + 1))
  lines=$(wc -l < "$file")
  if (( lines > max_file )); then
    echo "$file: $lines lines (at most $max_file: move a part to $chapters/$(basename "${file%.*}")/)"
    long=$((long + 1))
  fi
  while IFS=' ' read -r start length name; do
    functions=$((functions + 1))
    if (( length > max_function )); then
      echo "$file:$start: $name is $length lines (at most $max_function)"
      long=$((long + 1))
    fi
  done < <(awk '
    # a signature: at column 0, not a comment, preprocessor line, type or namespace, with a "("
    start == 0 && /^[A-Za-z_]/ && /\(/ && !/^(namespace|struct|class|enum|union|using|typedef|static_assert|template)[ <{]/ {
      start = NR; name = $0; sub(/\(.*/, "", name); n = split(name, w, /[ *&:]+/); name = w[n]
    }
    start != 0 && opened == 0 && /;[[:space:]]*(\/\/.*)?$/ && !/\{/ { start = 0; next }
    start != 0 && /\{[[:space:]]*(\/\/.*)?$/ { opened = 1 }
    start != 0 && opened && /^\}/ { print start, NR - start + 1, name; start = 0; opened = 0 }
  ' "$file")
done < <(find "$chapters" -path "$chapters/exercises" -prune -o \( -name '*.cpp' -o -name '*.h' \) -print | sort)
echo "chapter sizes: $files files, $functions functions, $long too long"
[ "$long" = 0 ]
