#!/usr/bin/env bash
# The whole test suite. The end-to-end and semver tests drive the real Composer client and
# Composer's own PHP semver library, and the admin UI tests a real Chromium, so PHP, Composer and
# Chromium are installed first when missing; the admin UI is built when stale. Redis (and with
# TEST_DATABASE=postgres, PostgreSQL) of our own is started when none is reachable: see
# scripts/test-services.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v php >/dev/null 2>&1 || need+=(php-cli)
command -v composer >/dev/null 2>&1 || need+=(composer)
command -v unzip >/dev/null 2>&1 || need+=(unzip)
[ -x /usr/bin/chromium ] || need+=(chromium)
if command -v php >/dev/null 2>&1; then
  # The module list is read whole first: with pipefail, `php -m | grep -q` failed now and then
  # (grep leaving early, php killed by SIGPIPE), and asked for an install of what was there.
  modules="$(php -m 2>/dev/null || true)"
  for ext in zip curl mbstring; do
    grep -qi "^${ext}$" <<<"$modules" || need+=("php-${ext}")
  done
else
  need+=(php-zip php-curl php-mbstring)
fi
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing test dependencies: ${need[*]}"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "Tests need PHP, Composer and Chromium: sudo apt-get install php-cli php-zip php-curl php-mbstring composer unzip chromium" >&2
    exit 1
  fi
fi

# shellcheck source=scripts/test-services.sh
source scripts/test-services.sh
ensure_redis
if [ "${TEST_DATABASE:-}" = "postgres" ]; then
  ensure_postgres
fi

mkdir -p .tmp
node --import tsx scripts/build-web.ts
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest.json "$@" || status=$?
if [ -f .tmp/vitest.json ]; then
  node -e 'const r = require("./.tmp/vitest.json");
    console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);'
fi
exit $status
