#!/usr/bin/env bash
# The whole test suite: typecheck, lint, unit and API tests on PGlite, the API tests again on
# PostgreSQL when TEST_DATABASE_URL is set, then the end-to-end tests in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step prints how long the one before it took, and the end prints them all (CI must stay under 30 min).
started=$SECONDS; last=$SECONDS; current=""; times=""
step() {
  [ -n "$current" ] && times="$times$(printf '%6ss  %s' $((SECONDS - last)) "$current")\n"
  last=$SECONDS; current="$*"
  printf '\n\033[1m==> %s\033[0m (at %ss)\n' "$*" $((SECONDS - started))
}
trap 'step done; printf "\nstep times:\n$times"' EXIT

# The three checks side by side (each mostly one core; CI has two), their output one after the other.
step "typecheck, lint and format"
logs="$(mktemp -d)"
npm run -s typecheck >"$logs/typecheck" 2>&1 &
typecheck=$!
npm run -s lint >"$logs/lint" 2>&1 &
lint=$!
npm run -s format:check >"$logs/format" 2>&1 &
format=$!
failed=""
wait $typecheck || failed="$failed typecheck"
wait $lint || failed="$failed lint"
wait $format || failed="$failed format"
for check in typecheck lint format; do
  [ -s "$logs/$check" ] && { echo "--- $check"; cat "$logs/$check"; }
done
rm -rf "$logs"
[ -z "$failed" ] || { echo "!! failed:$failed" >&2; exit 1; }

step "unit and API tests on PGlite (embedded PostgreSQL)"
TEST_DB=pglite npx vitest run

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  step "API tests on PostgreSQL ($(echo "$TEST_DATABASE_URL" | sed -E 's#//[^@]*@#//#'))"
  TEST_DB=pg npx vitest run --project server

  # The benchmark, reduced (2% of the data, 1 s per endpoint): no budgets, but no error and no
  # non-2xx answer anywhere, so a change that breaks it is caught. The full run: npm run bench.
  # PGlite's part is skipped here (the API tests ran on PGlite above), and so is Lighthouse (the
  # end-to-end tests check the pages' quality below); npm run bench runs both.
  step "benchmark smoke test on PostgreSQL (BENCH_SCALE=0.02)"
  BENCH_SKIP=pglite,lighthouse BENCH_DATABASE_URL="$(echo "$TEST_DATABASE_URL" | sed -E 's#/[^/?]*([?].*)?$#/kodi_bench_ci\1#')" \
    BENCH_SCALE=0.02 BENCH_DURATION=1 npm run -s bench
else
  echo "!! TEST_DATABASE_URL is not set: the API tests did not run on PostgreSQL."
fi

step "end-to-end tests in Chromium"
if [ -n "${TEST_DATABASE_URL:-}" ] && command -v psql >/dev/null; then
  # On PostgreSQL, as deployed: the embedded database shares the server's one core with its
  # requests (the suite ran 16.4 min on PGlite, 13.0 on PostgreSQL, on the same 2-core machine).
  e2e_url="$(echo "$TEST_DATABASE_URL" | sed -E 's#/([^/?]*)([?].*)?$#/\1_e2e\2#')"
  maintenance="$(echo "$TEST_DATABASE_URL" | sed -E 's#/[^/?]*([?].*)?$#/postgres\1#')"
  e2e_db="$(basename "$(echo "$e2e_url" | sed -E 's#[?].*$##')")"
  PGOPTIONS="--client-min-messages=warning" psql "$maintenance" -qc "DROP DATABASE IF EXISTS $e2e_db" -c "CREATE DATABASE $e2e_db"
  E2E_DATABASE_URL="$e2e_url" bash scripts/e2e.sh
  psql "$maintenance" -qc "DROP DATABASE IF EXISTS $e2e_db" || true
else
  bash scripts/e2e.sh
fi
