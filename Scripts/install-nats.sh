#!/usr/bin/env bash
# Installs nats-server (with JetStream) from the system's packages when it is missing, for the shipping
# tests and `rewind-bench ship`, which start their own servers on loopback ports.
# Idempotent and quiet: prints one line saying what it found or installed. Debian/Ubuntu (apt-get) only.
set -euo pipefail

for candidate in nats-server /usr/sbin/nats-server; do
  if command -v "$candidate" > /dev/null 2>&1; then
    echo "install-nats: $(command -v "$candidate") already installed ($("$candidate" --version 2>/dev/null || echo unknown version))"
    exit 0
  fi
done

if ! command -v apt-get > /dev/null 2>&1; then
  echo "install-nats: no apt-get on this system; install nats-server by hand" >&2
  exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq > /dev/null
$sudo apt-get install -y -qq --no-install-recommends nats-server > /dev/null
path="$(command -v nats-server || echo /usr/sbin/nats-server)"
echo "install-nats: installed $path ($("$path" --version 2>/dev/null || echo unknown version))"
