#!/usr/bin/env bash
# Installs Chromium from the system's packages when it is missing, for the timeline's headless-browser test.
# Idempotent and quiet: prints one line saying what it found or installed. Debian/Ubuntu (apt-get) only.
set -euo pipefail

for candidate in chromium chromium-browser; do
  if command -v "$candidate" > /dev/null 2>&1; then
    echo "install-browser: $(command -v "$candidate") already installed"
    exit 0
  fi
done

if ! command -v apt-get > /dev/null 2>&1; then
  echo "install-browser: no apt-get on this system; install Chromium by hand" >&2
  exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq > /dev/null
$sudo apt-get install -y -qq --no-install-recommends chromium > /dev/null
echo "install-browser: installed $(command -v chromium)"
