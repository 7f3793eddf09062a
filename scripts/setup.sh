#!/usr/bin/env bash
# Installs what broadcheck needs from Debian bookworm's archive (only what is missing, so a second run is quick),
# then configures build/ and builds.
#   setup.sh        the test command's: every package, every target (the tests included)
#   setup.sh run    the conformance command's: the packages a build and a run need, and only the targets a run starts
# Add --packages-only to install without building (a CI job that gets the binary from a build job: docs/ci.md).
# Each phase prints a line with the time since the start (scripts/progress.sh). Run as root from anywhere; it works
# in the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/progress.sh

what=test build=yes
for arg in "$@"; do
  case $arg in
    run | test) what=$arg ;;
    --packages-only) build=no ;;
    *) echo "setup.sh: unknown argument \"$arg\"; usage: setup.sh [run|test] [--packages-only]" >&2; exit 2 ;;
  esac
done

# What the build and a conformance run need (python3-numpy: the NumPy voter of broadcheck.json).
packages=(
  g++ cmake ninja-build git ccache
  libtorch-dev xtensor-dev librapidcheck-dev libgtest-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev libfmt-dev libgoogle-perftools-dev
  python3-numpy
)
# The targets a conformance run starts: broadcheck alone (its jobs and isolated workers are forks of it, and the
# NumPy voter in broadcheck.json is a Python script). engine_adapter is the tests' and the benchmarks'.
targets=(broadcheck)
if [ "$what" = test ]; then
  # Only the tests use these: the browser test of report.html, junit.xml's schema check, the CI templates' test.
  packages+=(chromium chromium-driver python3-selenium libxml2-utils python3-yaml)
  targets=()
fi

# Node for the npm-installed voters of broadcheck.json (oracles/*/package-lock.json): Debian's nodejs and npm (Node
# 18), only when the commands are missing (a machine with another Node, npm bundled with it, keeps it).
command -v node > /dev/null || packages+=(nodejs)
command -v npm > /dev/null || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  bc_begin "setup: installing ${#missing[@]} Debian package(s) and what they depend on: ${missing[*]}"
  log=$(mktemp)
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -q && apt-get install -y -q "${missing[@]}"; } > "$log" 2>&1 || { cat "$log"; rm -f "$log"; exit 1; }
  # apt's own figures: how much it downloaded and unpacked.
  sizes=$(grep -E '^(Need to get|After this operation)' "$log" | tr '\n' ' ' || true)
  rm -f "$log"
  bc_end "setup: packages installed. ${sizes% }"
else
  bc_step "setup: every Debian package is installed"
fi

# Each npm adapter's packages, exactly as its committed package-lock.json pins them, when its node_modules is missing
# or older than the lockfile or package.json (its postinstall may have changed; npm ci writes
# node_modules/.package-lock.json last). Nothing is fetched at build or run time. ONNX Runtime's postinstall would
# fetch CUDA libraries: its CPU binaries ship in the package.
for lock in oracles/*/package-lock.json; do
  dir=$(dirname "$lock") stamp=$(dirname "$lock")/node_modules/.package-lock.json
  if [ -f "$stamp" ] && [ ! "$lock" -nt "$stamp" ] && [ ! "$dir/package.json" -nt "$stamp" ]; then
    bc_step "setup: $dir's npm packages are installed"
    continue
  fi
  bc_begin "setup: npm ci in $dir (Node $(node --version), npm $(npm --version))"
  (cd "$dir" && ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund --loglevel=error)
  bc_end "setup: $dir's npm packages installed, $(du -sh "$dir/node_modules" | cut -f1)"
done
[ "$build" = yes ] || exit 0

bc_begin "setup: configuring build/ (CMake, Ninja, Release)"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release > build-configure.log 2>&1 || { cat build-configure.log; exit 1; }
rm -f build-configure.log
bc_end "setup: configured"

bc_begin "setup: building ${targets[*]:-every target (tests included)} into build/"
bc_build build "${targets[@]}"
bc_end "setup: built ${targets[*]:-every target}"
