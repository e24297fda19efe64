#!/usr/bin/env bash
# Runs a GitHub workflow's steps here, in a fresh clone of this repository's last commit, before
# they ever run on GitHub: each run: command of the workflow (tests/check_workflows.sh --steps),
# in order, as the job would, stopping at the first that fails. Each step's output goes to
# CLONE/workflow_step_N.log; its last line is printed beside its time.
# Ends "workflow NAME: N of N steps passed in a fresh clone (M min S s)"; exit 1 if one failed.
# usage: tests/tools/run_workflow.sh .github/workflows/linux.yml [CLONE_DIR]
set -u
workflow=$1
here=$(cd "$(dirname "$0")/../.." && pwd)
clone=${2:-$(mktemp -d)/transformer-by-hand}
[ -e "$here/$workflow" ] || { echo "error: $workflow: no such workflow"; exit 2; }
mapfile -t steps < <(bash "$here/tests/check_workflows.sh" --steps "$here/$workflow")
git clone --quiet "$here" "$clone" || exit 2
echo "workflow $(basename "$workflow"): ${#steps[@]} steps, in a fresh clone of $(git -C "$clone" rev-parse --short HEAD) at $clone"
started=$SECONDS; done_steps=0
for i in "${!steps[@]}"; do
  step=${steps[$i]}; log="$clone/workflow_step_$((i + 1)).log"; t=$SECONDS
  (cd "$clone" && bash -c "$step") > "$log" 2>&1; rc=$?
  echo "step $((i + 1)): $step — exit $rc in $(( (SECONDS - t) / 60 )) min $(( (SECONDS - t) % 60 )) s: $(tail -n 1 "$log")"
  [ "$rc" = 0 ] || break
  done_steps=$((done_steps + 1))
done
took=$((SECONDS - started))
echo "workflow $(basename "$workflow"): $done_steps of ${#steps[@]} steps passed in a fresh clone ($((took / 60)) min $((took % 60)) s)"
[ "$done_steps" = "${#steps[@]}" ]
