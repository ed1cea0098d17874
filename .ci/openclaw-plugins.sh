#!/usr/bin/env bash
# Fills an npm cache with what the pinned OpenClaw's own installer needs for
# the plugins it does not bundle (drivers/ssh, "Plugins": the SSH driver
# installs them from such a cache, offline, before a gateway starts), by
# running that installer once per plugin with a throwaway state directory.
# Prints the cache directory. Reuses a complete cache.
#
#   OPENCLAW_DIR=<.ci/openclaw.sh install> bash .ci/openclaw-plugins.sh discord slack
set -euo pipefail
: "${OPENCLAW_DIR:?the OpenClaw install (.ci/openclaw.sh)}"
CACHE=${OCCKIT_CACHE:-$HOME/.cache/occkit}
release=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$OPENCLAW_DIR/node_modules/openclaw/package.json" | head -n 1)
ids=("$@")
dir="$CACHE/openclaw-plugins-$release"
stamp="$dir/.complete-$(printf '%s\n' "${ids[@]}" | sort | tr '\n' '-')"
if [ -f "$stamp" ]; then echo "$dir/npm"; exit 0; fi
rm -rf "$dir.tmp" "$dir.work"; mkdir -p "$dir.tmp/npm" "$dir.work"
for id in "${ids[@]}"; do
  rm -rf "$dir.work/state"; mkdir -p "$dir.work/state"; echo '{}' > "$dir.work/openclaw.json"
  # The user's npm settings (a registry CA, say) stay; only the cache moves.
  PATH="$OPENCLAW_DIR/node/bin:$PATH" npm_config_cache="$dir.tmp/npm" \
    OPENCLAW_STATE_DIR="$dir.work/state" OPENCLAW_CONFIG_PATH="$dir.work/openclaw.json" \
    "$OPENCLAW_DIR/node_modules/.bin/openclaw" plugins install "$id" </dev/null >&2
done
rm -rf "$dir.work"
touch "$dir.tmp/${stamp##*/}"
rm -rf "$dir"; mv "$dir.tmp" "$dir"
echo "$dir/npm"
