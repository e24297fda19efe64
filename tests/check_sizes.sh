#!/usr/bin/env bash
# The code reads like a book: no file of chapters/ or src/ longer than 600 lines, no function
# longer than 60 (from its signature to its closing brace). A program longer than one file keeps
# its parts in a folder of its name (chapters/ch12_gpt/); a long step of the library is cut into
# steps, each a function of its own. A function is a definition that starts at the line's first
# column (the project's format) and ends at the first "}" there.
# Prints each file or function over its limit with where it is, and a summary line
# "sizes: N files, N functions, N too long"; exit 1 if any.
# usage: tests/check_sizes.sh [DIR...]   (default: chapters src)
set -u
[ $# -gt 0 ] || set -- chapters src
max_file=600; max_function=60
files=0; functions=0; long=0
while IFS= read -r file; do
  files=$((files + 1))
  lines=$(wc -l < "$file")
  if (( lines > max_file )); then
    if [[ $file == */chapters/* || $file == chapters/* ]]; then
      echo "$file: $lines lines (at most $max_file: move a part to $(dirname "$file")/$(basename "${file%.*}")/)"
    else
      echo "$file: $lines lines (at most $max_file: split it into files named for what each holds)"
    fi
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
done < <(for dir in "$@"; do
           find "$dir" -path "$dir/exercises" -prune -o \( -name '*.cpp' -o -name '*.h' \) -print
         done | sort)
echo "sizes: $files files, $functions functions, $long too long"
[ "$long" = 0 ]
