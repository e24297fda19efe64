#!/usr/bin/env bash
# The layering of src/ (README, "How the code is laid out"), checked over the #includes:
#   core      includes nothing of ours
#   model     includes core; its folders are in reading order (1_attention, 2_positions,
#             3_multi_head, 4_transformer, 5_decoding, …): a folder includes only folders up to
#             its own number, never a later chapter's
#   train     includes core and model
#   text      includes nothing of ours (the reader's language: tr(), number formats)
#   io        includes core, model, train and text, and JSON
#   report    includes core, model, train, io and text
#   chapters  include any layer
# JSON (<nlohmann/...>) only in io: nothing else pays for its compile time, and the math never
# meets it; the text layer only in io, report and chapters: the math never meets translation.
# Prints each offending include with where it is, and a summary line
# "layering: N files, N offending includes"; exit 1 if any.
# usage: tests/check_layers.sh [SRC_DIR [CHAPTERS_DIR]]
set -u
src=${1:-src}
chapters=${2:-chapters}
allowed_core=""; allowed_model="core"; allowed_train="core model"; allowed_text=""
allowed_io="core model train text"; allowed_report="core model train io text"
allowed_chapters="core model train io text report"
files=0; bad=0
offend() { echo "$1"; bad=$((bad + 1)); }
while IFS= read -r file; do
  files=$((files + 1))
  if [[ $file == "$chapters"/* ]]; then layer=chapters
  else layer=${file#"$src"/}; layer=${layer%%/*}
  fi
  case "$layer" in core|model|train|text|io|report|chapters) ;; *)
    offend "$file: not in a layer folder (core, model, train, text, io, report)"; continue;;
  esac
  folder=""  # model/N_name: the N of this file's folder
  if [ "$layer" = model ] && [[ $file =~ /model/([0-9]+)_[a-z_]+/ ]]; then folder=${BASH_REMATCH[1]}
  elif [ "$layer" = model ]; then offend "$file: model/ files sit in a numbered folder (1_attention …)"; fi
  allowed_var="allowed_$layer"; allowed="$layer${!allowed_var:+ ${!allowed_var}}"
  while IFS=: read -r line include; do
    [ -z "$line" ] && continue
    if [[ $include =~ \#include\ *\<nlohmann/ ]]; then
      [ "$layer" = io ] || offend "$file:$line: $include — only io includes JSON"
    elif [[ $include =~ \#include\ *\"([a-z_]+)/ ]]; then
      target=${BASH_REMATCH[1]}
      if [[ " $allowed " != *" $target "* ]]; then
        offend "$file:$line: $include — $layer may include only: ${allowed// /, }"
      elif [ -n "$folder" ] && [[ $include =~ \"model/([0-9]+)_ ]] && (( BASH_REMATCH[1] > folder )); then
        offend "$file:$line: $include — model/$folder… comes before it in reading order"
      fi
    elif [[ $include =~ \#include\ *\" ]]; then
      offend "$file:$line: $include — name the layer folder (\"core/matrix.h\")"
    fi
  done < <(grep -n '^[[:space:]]*#include' "$file")
done < <(find "$src" "$chapters" -name '*.h' -o -name '*.cpp' | sort)
echo "layering: $files files, $bad offending includes"
[ "$bad" = 0 ]
