#!/usr/bin/env bash
# Installs what broadcheck needs from Debian bookworm's archive (only what is missing, so a second run is quick),
# then configures and builds everything into build/. Run as root from anywhere; it works in the repository.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  g++ cmake ninja-build git ccache
  libtorch-dev xtensor-dev librapidcheck-dev libgtest-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev libfmt-dev libgoogle-perftools-dev
  chromium chromium-driver python3-selenium python3-numpy libxml2-utils
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q "${missing[@]}"
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release > build-configure.log 2>&1 || { cat build-configure.log; exit 1; }
rm -f build-configure.log
cmake --build build
