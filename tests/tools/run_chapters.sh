#!/usr/bin/env bash
# run_chapters.sh SAY PROGRAM… — make run: each chapter's walkthrough in turn (chapter 7's second
# task right after its first), then a table of what each took, so that a reader can see what they
# are waiting for: the wall time, and the peak memory where GNU time can measure it
# (/usr/bin/time -f; Debian's package "time"). Stops at the first program that fails, after
# printing the table so far. The table's words come from SAY (build/say, the reader's language).
set -u
say=$1
shift
labels=() walls=() peaks=()
gnu_time=
if /usr/bin/time -f %M -o /dev/null true 2>/dev/null; then gnu_time=yes; fi
record=$(mktemp)
trap 'rm -f "$record"' EXIT

table() {
    echo
    if [ -n "$gnu_time" ]; then "$say" run_table; else "$say" run_table_wall; fi
    local total=0 i
    for i in "${!labels[@]}"; do
        if [ -n "$gnu_time" ]; then
            printf '  %-36s %8.1f s %8.0f MB\n' "${labels[$i]}" "${walls[$i]}" \
                "$(awk -v k="${peaks[$i]}" 'BEGIN { print k / 1e3 }')"
        else
            printf '  %-36s %8.1f s\n' "${labels[$i]}" "${walls[$i]}"
        fi
        total=$(awk -v a="$total" -v b="${walls[$i]}" 'BEGIN { print a + b }')
    done
    printf '  %-36s %8.1f s\n' "$("$say" run_total)" "$total"
    if [ -n "$gnu_time" ]; then
        local most=0 p
        for p in "${peaks[@]}"; do [ "$p" -gt "$most" ] && most=$p; done
        "$say" run_peak "$(awk -v k="$most" 'BEGIN { printf "%.2f", k / 1e6 }')"
    fi
}

one() {  # one label command…: the walkthrough, timed
    local label=$1 start end status
    shift
    echo
    echo "######## $label ########"
    if [ -n "$gnu_time" ]; then
        /usr/bin/time -f '%e %M' -o "$record" "$@"
        status=$?
        walls+=("$(awk '{ w = $1 } END { print w }' "$record")")
        peaks+=("$(awk '{ m = $2 } END { print m }' "$record")")
    else
        start=$(date +%s)
        "$@"
        status=$?
        end=$(date +%s)
        walls+=("$((end - start))")
    fi
    labels+=("$label")
    if [ "$status" -ne 0 ]; then
        table
        exit "$status"
    fi
}

for program in "$@"; do
    name=$(basename "$program")
    name=${name%.exe}
    one "$name" "$program"
    if [ "$name" = ch07_training ]; then one "$name --task numerals" "$program" --task numerals; fi
done
table
