#!/usr/bin/env bash
# Installs exactly the Debian packages mvprof needs to build, run and test.
# Idempotent: when everything is present it only checks (about a second).
set -euo pipefail

packages=(
  cmake ninja-build g++ ccache pkg-config dpkg-dev
  qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  libqcustomplot-dev libqcustomplot2.1-qt6
  libtorch-dev
  # Debian's libtorch calls whatever BLAS the system alternative points to;
  # without OpenBLAS that is the reference BLAS, ~30x slower.
  libopenblas0-pthread
  libsqlite3-dev sqlite3
  libstb-dev nlohmann-json3-dev libcli11-dev zlib1g-dev
  # The CLI's exported colour bar sets its text in DejaVu Sans (core/image/Font.h).
  fonts-dejavu-core
  xvfb xauth
  # The tests check mvprof's numbers against torch.profiler on torchvision
  # models, with the same libtorch 1.13 (run with /usr/bin/python3).
  python3-torch python3-torchvision
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "Installing: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}"
