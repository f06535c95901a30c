#!/usr/bin/env bash
# Installs the Swift toolchain RaceLab is built and verified with, unless it is already on PATH.
# Used by the Gradescope set-up and the GitHub Classroom workflow (Ubuntu 20.04/22.04/24.04, as
# root or with sudo). RACELAB_SWIFT_VERSION overrides the version.
set -euo pipefail
version="${RACELAB_SWIFT_VERSION:-6.3.1}"
if swift --version 2>/dev/null | grep -q "Swift version ${version} "; then
    echo "install-swift: Swift ${version} is already installed ($(command -v swift))"
    exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
. /etc/os-release
if [ "${ID:-}" != ubuntu ]; then
    echo "install-swift: this script installs on Ubuntu only (found ${PRETTY_NAME:-unknown}); install Swift ${version} from swift.org, then run again" >&2
    exit 2
fi
platform="ubuntu${VERSION_ID}"                          # ubuntu22.04
folder="ubuntu${VERSION_ID//./}"                        # ubuntu2204
arch=""; if [ "$(uname -m)" = aarch64 ]; then arch="-aarch64"; fi
case "$VERSION_ID" in
    20.04) gcc=9 ;; 22.04) gcc=11 ;; *) gcc=13 ;;
esac
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q binutils curl git gnupg2 libc6-dev libcurl4-openssl-dev libedit2 "libgcc-${gcc}-dev" \
    libpython3-dev libsqlite3-0 "libstdc++-${gcc}-dev" libxml2-dev libz3-dev make pkg-config tzdata unzip zlib1g-dev
name="swift-${version}-RELEASE-${platform}${arch}"
url="https://download.swift.org/swift-${version}-release/${folder}${arch}/swift-${version}-RELEASE/${name}.tar.gz"
echo "install-swift: downloading ${url}"
tmp="$(mktemp -d)"
curl -fsSL "$url" -o "$tmp/swift.tar.gz"
$sudo mkdir -p /opt/swift
$sudo tar -xzf "$tmp/swift.tar.gz" -C /opt/swift --strip-components=1
rm -rf "$tmp"
for tool in /opt/swift/usr/bin/*; do $sudo ln -sf "$tool" "/usr/local/bin/$(basename "$tool")"; done
swift --version
