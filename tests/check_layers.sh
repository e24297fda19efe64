#!/usr/bin/env bash
# The layering of src/ (README, "How the code is laid out"), checked over the #includes:
#   core    includes nothing of ours
#   model   includes core
#   train   includes core and model
#   io      includes core and model (data files and model files), and JSON
#   report  includes anything below it, and JSON
# JSON (<nlohmann/json.hpp>) only in io and report. Prints each offending include with where
# it is, and a summary line "layering: N files, N offending includes"; exit 1 if any.
# usage: tests/check_layers.sh [SRC_DIR]
set -u
src=${1:-src}
allowed_core=""; allowed_model="core"; allowed_train="core model"; allowed_io="core model"
allowed_report="core model train io"
files=0; bad=0
while IFS= read -r file; do
  files=$((files + 1))
  layer=$(basename "$(dirname "$file")")
  case "$layer" in core|model|train|io|report) ;; *)
    echo "$file: not in a layer folder (core, model, train, io, report)"; bad=$((bad + 1)); continue;;
  esac
  allowed_var="allowed_$layer"; allowed="$layer ${!allowed_var}"
  while IFS=: read -r line include; do
    [ -z "$line" ] && continue
    if [[ $include =~ \#include\ *\<nlohmann/ ]]; then
      case "$layer" in io|report) ;; *)
        echo "$file:$line: $include — $layer may not include JSON (only io and report do)"; bad=$((bad + 1));;
      esac
    elif [[ $include =~ \#include\ *\"([a-z_]+)/ ]]; then
      target=${BASH_REMATCH[1]}
      if [[ " $allowed " != *" $target "* ]]; then
        echo "$file:$line: $include — $layer may include only: ${allowed// /, }"; bad=$((bad + 1))
      fi
    elif [[ $include =~ \#include\ *\" ]]; then
      echo "$file:$line: $include — name the layer folder (\"core/matrix.h\")"; bad=$((bad + 1))
    fi
  done < <(grep -n '^[[:space:]]*#include' "$file" | sed 's/^\([0-9]*\):/\1:/')
done < <(find "$src" -name '*.h' -o -name '*.cpp' | sort)
echo "layering: $files files, $bad offending includes"
[ "$bad" = 0 ]
