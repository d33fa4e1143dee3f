#!/usr/bin/env bash
# Runs the date-dependent tests (the calendar) with the clock set to 5 January and to 30 June of next year
# (Debian's faketime; timers still run), so a test that builds a date only valid part of the year fails here.
# The two days run at once, each day's files in parallel workers (faketime's clock reaches them through the
# environment): the calendar's browser file is most of each day and keeps one core, so one after the other left the
# other core idle. Each day's output is printed whole once both ended; their durations go to
# test-results/any-date-DAY.json for the test line's list of slowest files.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
next=$(( $(date +%Y) + 1 ))
days=("$next-01-05 10:00:00" "$next-06-30 10:00:00")
pids=()
for day in "${days[@]}"; do
  faketime "$day" bun test --timeout 120000 --parallel="${TEST_WORKERS:-3}" --no-isolate --timings="test-results/any-date-${day%% *}.json" --update-timings \
    tests/api/calendar.test.ts tests/api/calendar-watch.test.ts tests/e2e/calendar.test.ts >"test-results/any-date-${day%% *}.log" 2>&1 &
  pids+=($!)
done
failed=0
for i in "${!days[@]}"; do
  wait "${pids[$i]}" || failed=1
  echo "=== Calendar tests with the clock at ${days[$i]}"
  cat "test-results/any-date-${days[$i]%% *}.log"
done
exit "$failed"
