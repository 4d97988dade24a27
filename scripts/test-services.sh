# shellcheck shell=bash
# Redis and PostgreSQL for the test suite, sourced by scripts/test.sh.
#
# The suite talks to Redis at TEST_REDIS_URL (default redis://127.0.0.1:6379) and, when
# TEST_DATABASE=postgres, to PostgreSQL at TEST_DATABASE_URL (default
# postgres://postgres@127.0.0.1:5432/test). Development and CI machines run both as services; on a
# fresh machine nothing listens there, so when a server is not reachable we start a throwaway one of
# our own on a free loopback port, point the URL at it, and stop it when the script exits (normally,
# on failure or on Ctrl-C). A reachable server is used as it is.

# What we started, for stop_services: Redis's pid, and each server's temp dir (log, data).
SERVICE_REDIS_PID=""
SERVICE_REDIS_DIR=""
SERVICE_PG_DIR=""
SERVICE_PG_BIN=""

# "host port" of a URL, with default_port when the URL names none.
url_host_port() { # url default_port
  node -e 'const u = new URL(process.argv[1]);
    console.log(u.hostname.replace(/^\[|\]$/g, "") || "127.0.0.1", u.port || process.argv[2]);' \
    "$1" "$2"
}

# Whether something accepts TCP connections at host port.
reachable() { # host port
  timeout 2 bash -c "</dev/tcp/$1/$2" 2>/dev/null
}

# A TCP port nothing listens on right now on 127.0.0.1 (the kernel picks it).
free_port() {
  node -e 'const s = require("node:net").createServer();
    s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

# Waits up to 30 s for host port to accept connections.
wait_reachable() { # host port
  for _ in $(seq 1 300); do
    reachable "$1" "$2" && return 0
    sleep 0.1
  done
  return 1
}

# Installs Debian packages when we are root with apt-get, as scripts/test.sh does for PHP;
# otherwise says what to install and exits.
install_packages() { # what package...
  local what=$1
  shift
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing $what for the tests: $*"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  else
    echo "Tests need $what (none is reachable to use): sudo apt-get install $*" >&2
    exit 1
  fi
}

stop_services() {
  if [ -n "$SERVICE_REDIS_PID" ]; then
    kill "$SERVICE_REDIS_PID" 2>/dev/null || true
    wait "$SERVICE_REDIS_PID" 2>/dev/null || true
    SERVICE_REDIS_PID=""
  fi
  if [ -n "$SERVICE_REDIS_DIR" ]; then
    rm -rf "$SERVICE_REDIS_DIR"
    SERVICE_REDIS_DIR=""
  fi
  if [ -n "$SERVICE_PG_DIR" ]; then
    # Immediate: the data is thrown away, so there is no point in a clean checkpoint.
    as_pg_user "$SERVICE_PG_BIN/pg_ctl" -D "$SERVICE_PG_DIR/data" stop -m immediate \
      >/dev/null 2>&1 || true
    rm -rf "$SERVICE_PG_DIR"
    SERVICE_PG_DIR=""
  fi
}

# An EXIT trap alone would not run on Ctrl-C or kill: turn those into an exit so it does.
trap stop_services EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Uses the Redis at TEST_REDIS_URL, or starts one of our own when it is not reachable.
ensure_redis() {
  export TEST_REDIS_URL="${TEST_REDIS_URL:-redis://127.0.0.1:6379}"
  local host port
  read -r host port < <(url_host_port "$TEST_REDIS_URL" 6379)
  reachable "$host" "$port" && return 0

  command -v redis-server >/dev/null 2>&1 || install_packages Redis redis-server
  port=$(free_port)
  SERVICE_REDIS_DIR=$(mktemp -d "${TMPDIR:-/tmp}/packyard-test-redis.XXXXXX")
  echo "No Redis at $TEST_REDIS_URL: starting one on 127.0.0.1:$port for the tests"
  # No persistence: nothing of the tests' keys is worth keeping, and nothing is written outside
  # the temp dir. stop_services stops it on exit.
  redis-server --bind 127.0.0.1 --port "$port" --save "" --appendonly no \
    --dir "$SERVICE_REDIS_DIR" >"$SERVICE_REDIS_DIR/redis.log" 2>&1 &
  SERVICE_REDIS_PID=$!
  if ! wait_reachable 127.0.0.1 "$port"; then
    echo "Redis did not start:" >&2
    cat "$SERVICE_REDIS_DIR/redis.log" >&2
    exit 1
  fi
  export TEST_REDIS_URL="redis://127.0.0.1:$port"
}

# Runs a command as the owner of our PostgreSQL: PostgreSQL refuses to run as root, so as root
# that is the postgres user that Debian's package creates. From inside the data's parent dir, as
# the postgres user may not be allowed into the current one.
as_pg_user() {
  if [ "$(id -u)" = "0" ]; then
    (cd "$SERVICE_PG_DIR" && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

# The newest of Debian's PostgreSQL bin dirs (initdb and pg_ctl are not on PATH there), else
# the dir of an initdb on PATH.
postgres_bin_dir() {
  local initdb
  # Sorted as versions: the glob alone puts 9.6 after 16. Left as the pattern when none matches.
  initdb=$(printf '%s\n' /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)
  if [ -x "$initdb" ]; then
    dirname "$initdb"
  elif command -v initdb >/dev/null 2>&1; then
    dirname "$(command -v initdb)"
  fi
}

# Uses the PostgreSQL at TEST_DATABASE_URL, or starts one of our own when it is not reachable:
# a fresh cluster with trust auth and the database test, on 127.0.0.1 at a free port.
ensure_postgres() {
  export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
  local host port
  read -r host port < <(url_host_port "$TEST_DATABASE_URL" 5432)
  reachable "$host" "$port" && return 0

  SERVICE_PG_BIN=$(postgres_bin_dir)
  if [ -z "$SERVICE_PG_BIN" ]; then
    install_packages PostgreSQL postgresql
    SERVICE_PG_BIN=$(postgres_bin_dir)
  fi
  if [ "$(id -u)" = "0" ] && ! id postgres >/dev/null 2>&1; then
    echo "Tests on PostgreSQL run it as the user postgres, which does not exist: sudo apt-get install postgresql" >&2
    exit 1
  fi
  port=$(free_port)
  SERVICE_PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/packyard-test-pg.XXXXXX")
  if [ "$(id -u)" = "0" ]; then chown postgres: "$SERVICE_PG_DIR"; fi
  echo "No PostgreSQL at $TEST_DATABASE_URL: starting one on 127.0.0.1:$port for the tests"
  as_pg_user "$SERVICE_PG_BIN/initdb" -D "$SERVICE_PG_DIR/data" -U postgres --auth=trust \
    -E UTF8 --locale=C.UTF-8 --no-sync >"$SERVICE_PG_DIR/initdb.log" 2>&1 ||
    { cat "$SERVICE_PG_DIR/initdb.log" >&2; exit 1; }
  # fsync off: the data is thrown away, and a crash loses nothing we keep.
  as_pg_user "$SERVICE_PG_BIN/pg_ctl" -D "$SERVICE_PG_DIR/data" -l "$SERVICE_PG_DIR/postgres.log" \
    -w -o "-c listen_addresses=127.0.0.1 -p $port -k '$SERVICE_PG_DIR' -c fsync=off" \
    start >/dev/null ||
    { cat "$SERVICE_PG_DIR/postgres.log" >&2; exit 1; }
  as_pg_user "$SERVICE_PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U postgres test
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/test"
}
