#!/usr/bin/env bash
# The layering of src/ (src/README.md), checked over the #includes:
#   core      includes nothing of ours (the fast product plugs in from above: product_loops.h)
#   fast      the code that exists only for speed (register tiles, packing, prefetching,
#             threads): includes core
#   model     includes core and fast; its folders are named for what they hold and listed below in
#             reading order, each built on the ones before it: a folder includes only itself
#             and folders earlier in MODEL_ORDER, never a later one (src/README.md explains
#             the order and which chapters each folder serves)
#   train     what trains a model (the optimiser, batches, the loop, the tasks): core, fast, model
#   ngram     the n-gram baselines (Kneser-Ney): core, fast and model
#   verse     Tang verse — the poems as tokens, rhyme and tones, the rules of regulated verse,
#             对仗, doubling: core, fast, model and train
#   inside    what a trained model learned (chapter 14: where its heads look, a head or a block
#             taken out, induction, the logit lens, the paths of a preference): core, fast,
#             model, train and verse
#   text      includes nothing of ours (the reader's language: tr(), number formats)
#   io        includes core, fast, model, train, ngram, verse, inside and text, and JSON
#   report    includes every layer above but exercises, web and chapters
#   exercises the exercises' checker (src/exercises/): includes every layer above but web and
#             chapters; chapters/exercises/ (the reader's copies) are not checked: a reader's
#             file is theirs
#   web       the live book's module (src/web/live_book.cpp): includes nothing of ours, it calls
#             the chapters' main functions by name
#   chapters  include any layer, and a chapter its own parts (chapters/ch12_gpt.cpp and the files
#             of chapters/ch12_gpt/ include "ch12_gpt/…"; no chapter includes another's)
# JSON (<nlohmann/...>) only in io: nothing else pays for its compile time, and the math never
# meets it; the text layer only in io, report and chapters: the math never meets translation.
# Prints each offending include with where it is, and a summary line
# "layering: N files, N offending includes"; exit 1 if any.
# usage: tests/check_layers.sh [SRC_DIR [CHAPTERS_DIR]]
set -u
src=${1:-src}
chapters=${2:-chapters}
allowed_core=""; allowed_fast="core"; allowed_model="core fast"; allowed_train="core fast model"
allowed_ngram="core fast model"; allowed_verse="core fast model train"
allowed_inside="core fast model train verse"
allowed_text=""; allowed_web=""; allowed_io="core fast model train ngram verse inside text"
allowed_report="$allowed_io io"
allowed_exercises="$allowed_report report"
allowed_chapters="$allowed_report report"
# the folders of src/model, in reading order
MODEL_ORDER="attention positions multi_head layer_cost transformer decoding gpt low_precision"
files=0; bad=0
offend() { echo "$1"; bad=$((bad + 1)); }
order_of() {  # the place of a model folder in MODEL_ORDER, or nothing
  local i=1 f
  for f in $MODEL_ORDER; do [ "$f" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done
}
while IFS= read -r file; do
  files=$((files + 1))
  if [[ $file == "$chapters"/* ]]; then layer=chapters
  else layer=${file#"$src"/}; layer=${layer%%/*}
  fi
  case "$layer" in core|fast|model|train|ngram|verse|inside|text|io|report|exercises|web|chapters) ;; *)
    offend "$file: not in a layer folder (core, fast, model, train, ngram, verse, inside, text, io, report, exercises, web)"; continue;;
  esac
  folder=""  # model/NAME: the place of this file's folder in MODEL_ORDER (1, 2, …)
  if [ "$layer" = model ]; then
    name=""; [[ $file =~ /model/([a-z_]+)/ ]] && name=${BASH_REMATCH[1]}
    folder=$(order_of "$name")
    [ -z "$folder" ] && offend "$file: model/ files sit in a folder of MODEL_ORDER ($MODEL_ORDER)"
  fi
  allowed_var="allowed_$layer"; allowed="$layer${!allowed_var:+ ${!allowed_var}}"
  if [ "$layer" = chapters ]; then  # the chapter's own folder of parts
    own=${file#"$chapters"/}; own=${own%%/*}; own=${own%.*}; allowed="$allowed $own"
  fi
  while IFS=: read -r line include; do
    [ -z "$line" ] && continue
    if [[ $include =~ \#include\ *\<nlohmann/ ]]; then
      [ "$layer" = io ] || offend "$file:$line: $include — only io includes JSON"
    elif [[ $include =~ \#include\ *\"([a-z0-9_]+)/ ]]; then
      target=${BASH_REMATCH[1]}
      if [[ " $allowed " != *" $target "* ]]; then
        offend "$file:$line: $include — $layer may include only: ${allowed// /, }"
      elif [ -n "$folder" ] && [[ $include =~ \"model/([a-z_]+)/ ]]; then
        target_folder=$(order_of "${BASH_REMATCH[1]}")
        if [ -z "$target_folder" ] || (( target_folder > folder )); then
          offend "$file:$line: $include — model/$name comes before model/${BASH_REMATCH[1]} in reading order ($MODEL_ORDER)"
        fi
      fi
    elif [[ $include =~ \#include\ *\" ]]; then
      offend "$file:$line: $include — name the layer folder (\"core/matrix.h\")"
    fi
  done < <(grep -n '^[[:space:]]*#include' "$file")
done < <(find "$src" "$chapters" -path "$chapters/exercises" -prune -o \( -name '*.h' -o -name '*.cpp' \) -print | sort)
echo "layering: $files files, $bad offending includes"
[ "$bad" = 0 ]
