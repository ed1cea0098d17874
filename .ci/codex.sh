#!/usr/bin/env bash
# Fetches the real Codex CLI into the cache (RECIPES.md, "The real Codex
# CLI"): the pinned platform package @openai/codex@<version>-linux-x64 from
# the npm registry with `npm pack`, untarred, no install scripts. Prints the
# path of the static codex binary. Reuses a complete fetch.
#
# Layout under $OCCKIT_CACHE/codex-$CODEX_VERSION:
#   package/vendor/x86_64-unknown-linux-musl/bin/codex
set -euo pipefail
CODEX_VERSION=${CODEX_VERSION:-0.171.0}
CACHE=${OCCKIT_CACHE:-$HOME/.cache/occkit}
dir="$CACHE/codex-$CODEX_VERSION"
bin="$dir/package/vendor/x86_64-unknown-linux-musl/bin/codex"
if [ -f "$dir/.complete" ] && [ -x "$bin" ]; then echo "$bin"; exit 0; fi
command -v npm >/dev/null || {
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
}
rm -rf "$dir.tmp"; mkdir -p "$dir.tmp"
(
  cd "$dir.tmp"
  tgz=$(npm pack --silent "@openai/codex@$CODEX_VERSION-linux-x64" | tail -n 1)
  tar -xzf "$tgz" && rm "$tgz"
) >&2
"$dir.tmp/package/vendor/x86_64-unknown-linux-musl/bin/codex" --version >&2
touch "$dir.tmp/.complete"
rm -rf "$dir"; mv "$dir.tmp" "$dir"
echo "$bin"
