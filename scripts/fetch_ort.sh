#!/usr/bin/env bash
# Fetch ONNX Runtime (CPU, linux x64) for side-by-side comparisons with Trinity (DESIGN.md
# "Peers to compare against"): the shared library from onnxruntime-node and the C/C++ headers
# from com.github.asus4.onnxruntime, both from npm.
#
# Installs into $TRINITY_CACHE_DIR/ort:
#   lib/libonnxruntime.so.1 (+ libonnxruntime.so symlink)   from onnxruntime-node@$ORT_VERSION
#   include/*.h                                               from com.github.asus4.onnxruntime
#   VERSION                                                   the ORT version, e.g. "1.30.0"
#
# Packages are only fetched with `npm pack` and extracted: their install scripts never run
# (onnxruntime-node's postinstall tries to download from a host we cannot reach; this is what
# ONNXRUNTIME_NODE_INSTALL=skip would do). Tarballs are cached in $TRINITY_CACHE_DIR/npm.
#
# Safe to run again (and from scripts/setup.sh): when ort/VERSION matches and the library and
# headers are present, nothing is downloaded. Exits non-zero with a message naming the package
# on a failed download or a missing file.
#
# Environment:
#   TRINITY_CACHE_DIR   cache root (default: ~/.cache/trinity)
set -euo pipefail

ort_version="1.30.0"
ort_pkg="onnxruntime-node@$ort_version"
ort_lib_path="bin/napi-v6/linux/x64/libonnxruntime.so.1"
hdr_pkg="com.github.asus4.onnxruntime@0.4.9"
hdr_dir_path="Plugins/iOS~/onnxruntime.xcframework/ios-arm64/onnxruntime.framework/Headers"
# Headers the C API needs; their presence marks a complete install.
required_headers=(onnxruntime_c_api.h onnxruntime_cxx_api.h onnxruntime_cxx_inline.h)

cache_dir="${TRINITY_CACHE_DIR:-$HOME/.cache/trinity}"
npm_dir="$cache_dir/npm"
ort_dir="$cache_dir/ort"

die() { echo "fetch_ort: error: $*" >&2; exit 1; }

installed() {
  [[ -f "$ort_dir/VERSION" && "$(cat "$ort_dir/VERSION")" == "$ort_version" ]] || return 1
  [[ -s "$ort_dir/lib/libonnxruntime.so.1" ]] || return 1
  local h
  for h in "${required_headers[@]}"; do
    [[ -s "$ort_dir/include/$h" ]] || return 1
  done
}

if installed; then
  echo "fetch_ort: ONNX Runtime $ort_version already in $ort_dir"
  exit 0
fi

command -v tar >/dev/null || die "tar not found"
mkdir -p "$npm_dir"
work="$(mktemp -d "${TMPDIR:-/tmp}/trinity-fetch-ort.XXXXXX")"
trap 'rm -rf "$work"' EXIT

log_name=fetch_ort
# shellcheck source=scripts/npm_tarball.sh
source "$(dirname "${BASH_SOURCE[0]}")/npm_tarball.sh"

# 1. The library.
ort_tgz=$(ensure_tarball "$ort_pkg")
member=$(find_member "$ort_tgz" "$ort_lib_path")
[[ -n "$member" ]] || die "$ort_lib_path not found in $ort_pkg ($ort_tgz)"
mkdir -p "$work/lib"
tar -xzOf "$ort_tgz" -- "$member" >"$work/lib/libonnxruntime.so.1" ||
  die "cannot extract $ort_lib_path from $ort_tgz"
[[ -s "$work/lib/libonnxruntime.so.1" ]] || die "$ort_lib_path in $ort_pkg is empty"
chmod 0755 "$work/lib/libonnxruntime.so.1"
ln -s libonnxruntime.so.1 "$work/lib/libonnxruntime.so"

# 2. The headers: every file directly under the Headers folder.
hdr_tgz=$(ensure_tarball "$hdr_pkg")
mkdir -p "$work/include"
mapfile -t members < <(tar -tzf "$hdr_tgz" 2>/dev/null | awk -v d="$hdr_dir_path/" '
  { i = index($0, "/"); if (i == 0) next; rest = substr($0, i + 1)
    if (index(rest, d) == 1 && length(rest) > length(d) && index(substr(rest, length(d) + 1), "/") == 0) print }')
((${#members[@]} > 0)) || die "no headers under $hdr_dir_path in $hdr_pkg ($hdr_tgz)"
# One pass over the (large) tarball for all of them.
mkdir -p "$work/x"
tar -xzf "$hdr_tgz" -C "$work/x" -- "${members[@]}" || die "cannot extract headers from $hdr_tgz"
for m in "${members[@]}"; do
  mv "$work/x/$m" "$work/include/${m##*/}"
done
for h in "${required_headers[@]}"; do
  [[ -s "$work/include/$h" ]] || die "$h not found under $hdr_dir_path in $hdr_pkg"
done
chmod 0644 "$work/include/"*

# 3. Install: replace lib/ and include/, then write VERSION last so an interrupted run is
# redone next time.
mkdir -p "$ort_dir"
rm -f "$ort_dir/VERSION"
rm -rf "${ort_dir:?}/lib" "${ort_dir:?}/include"
mv "$work/lib" "$ort_dir/lib"
mv "$work/include" "$ort_dir/include"
printf '%s\n' "$ort_version" >"$ort_dir/VERSION.part.$$"
mv -f "$ort_dir/VERSION.part.$$" "$ort_dir/VERSION"
echo "fetch_ort: ONNX Runtime $ort_version installed in $ort_dir (lib/, include/ from $hdr_pkg)"
