#!/usr/bin/env bash
# Runs the date-dependent tests (the calendar) with the clock set to 5 January and to 30 June of next year
# (Debian's faketime; timers still run), so a test that builds a date only valid part of the year fails here.
# Each day's files run in parallel workers (faketime's clock reaches them through the environment); their
# durations go to test-results/any-date-DAY.json for the test line's list of slowest files.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
next=$(( $(date +%Y) + 1 ))
for day in "$next-01-05 10:00:00" "$next-06-30 10:00:00"; do
  echo "Calendar tests with the clock at $day"
  faketime "$day" bun test --timeout 120000 --parallel="${TEST_WORKERS:-3}" --timings="test-results/any-date-${day%% *}.json" --update-timings \
    tests/api/calendar.test.ts tests/api/calendar-watch.test.ts tests/e2e/calendar.test.ts
done
