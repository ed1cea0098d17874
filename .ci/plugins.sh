#!/usr/bin/env bash
# Records into an npm mirror directory the plugin installs the real-gateway
# tier's init steps repeat without a network (drivers/kubernetes
# realgateway_test.go): each runs the release's own
# `openclaw plugins install --force <spec>` through a recording mirror of
# the public registry (internal/realgateway/npmrecord), so the mirror holds
# exactly what that install fetches. Prints the mirror directory. Reuses a
# complete recording.
#
# The specs are what the tier's revisions render (render.Options.Plugins):
# the plugins their documents configure that the release does not bundle,
# at the version the release pins (compile.RequiredPlugins).
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=${OCCKIT_CACHE:-$HOME/.cache/occkit}
OPENCLAW_VERSION=${OPENCLAW_VERSION:-2026.9.6}
specs=("@openclaw/discord@2026.9.6" "@openclaw/codex@2026.9.5")
dir="$CACHE/npm-mirror"
stamp="$dir/.complete-$(printf '%s\n' "$OPENCLAW_VERSION" "${specs[@]}" | sha256sum | cut -c1-16)"
if [ -f "$stamp" ]; then echo "$dir"; exit 0; fi
openclaw_dir=$(OPENCLAW_VERSION=$OPENCLAW_VERSION bash .ci/openclaw.sh | tail -n 1)
mkdir -p "$dir"
bin="$CACHE/bin/npmrecord"
go build -o "$bin" ./internal/realgateway/npmrecord
for spec in "${specs[@]}"; do
  home=$(mktemp -d)
  echo "== recording $spec" >&2
  # A fresh home: npm's cache must not answer instead of the mirror.
  env HOME="$home" OPENCLAW_STATE_DIR="$home/state" OPENCLAW_CONFIG_PATH="$home/openclaw.json" \
    PATH="$openclaw_dir/node/bin:$PATH" \
    "$bin" -dir "$dir" -- "$openclaw_dir/node_modules/.bin/openclaw" plugins install --force "$spec" >&2
  rm -rf "$home"
done
touch "$stamp"
echo "$dir"
