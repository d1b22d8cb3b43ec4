#!/usr/bin/env bash
# Installs Hearth's build and test dependencies from Debian packages, only
# those that are missing. Safe to run repeatedly; needs root (or sudo).
set -euo pipefail

packages=(
  g++ cmake make pkg-config
  clang
  python3
  libboost1.81-dev
  libspdlog-dev
  catch2
  libedit-dev
  libssl-dev
  openssl
  libpcre2-dev
  liblz4-dev
  tzdata
  libpq-dev
  postgresql-client-15
  postgresql-15
  libpostgresql-jdbc-java
  default-jdk-headless
  nodejs
  pgbouncer
  pgpool2
)

# pgbouncer and pgpool-II are only run by tests (tests/integration
# pooler_test.cpp), each on its own free port with its own config file; the
# system services their packages would start hold ports 6432 and 5433.
stop_pooler_services() {
  local svc
  for svc in pgbouncer pgpool2; do
    if [ -d /run/systemd/system ]; then
      $SUDO systemctl disable --now "$svc" >/dev/null 2>&1 || true
    else
      if command -v systemctl >/dev/null 2>&1; then
        $SUDO systemctl disable "$svc" >/dev/null 2>&1 || true
      fi
      if [ -x "/etc/init.d/$svc" ]; then
        $SUDO /etc/init.d/"$svc" stop >/dev/null 2>&1 || true
        $SUDO update-rc.d "$svc" disable >/dev/null 2>&1 || true
      fi
    fi
  done
}

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# node-postgres for the driver test (tests/integration/node_pg_test.cpp),
# pinned by tests/integration/node/package-lock.json.
install_node_modules() {
  local dir
  dir="$(cd "$(dirname "$0")/.." && pwd)/tests/integration/node"
  if [ ! -f "$dir/node_modules/pg/package.json" ]; then
    echo "install-deps: npm ci in tests/integration/node"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

# Debian's npm is its own package; NodeSource's nodejs carries npm inside.
if ! command -v npm >/dev/null 2>&1; then
  missing+=(npm)
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

if [ ${#missing[@]} -eq 0 ]; then
  install_node_modules
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# The postgresql-15 package would otherwise create and start a default cluster
# on port 5432; we only want its binaries (pgbench, the reference server).
if [ ! -e /etc/postgresql-common/createcluster.conf ] || ! grep -q '^create_main_cluster = false' /etc/postgresql-common/createcluster.conf 2>/dev/null; then
  $SUDO mkdir -p /etc/postgresql-common
  echo "create_main_cluster = false" | $SUDO tee -a /etc/postgresql-common/createcluster.conf >/dev/null
fi
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
stop_pooler_services
install_node_modules
