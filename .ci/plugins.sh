#!/usr/bin/env bash
# Prepares the plugins the real tiers provide without a network, for the
# pinned OpenClaw release: the plugins their revisions configure that the
# release does not bundle (Discord and Codex on Kubernetes, Discord and
# Slack over SSH), each at the spec the release installs
# (compile.RequiredPlugins, from the release data the library carries).
# internal/realgateway/npmrecord runs the release's own
# `openclaw plugins install` for each twice: through a recording mirror of
# the public registry, into DIR/mirror (the npm mirror the Kubernetes
# tier serves its init containers, OCCKIT_NPM_MIRROR), and with
# npm_config_cache at DIR/npm (the npm cache the SSH driver installs from
# offline, OCCKIT_OPENCLAW_PLUGIN_CACHE). Prints DIR. Reuses a complete
# preparation.
#
#   OPENCLAW_DIR=<.ci/openclaw.sh install> bash .ci/plugins.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${OPENCLAW_DIR:?the OpenClaw install (.ci/openclaw.sh)}"
CACHE=${OCCKIT_CACHE:-$HOME/.cache/occkit}
bin="$CACHE/bin/npmrecord"
mkdir -p "$CACHE/bin"
go build -o "$bin" ./internal/realgateway/npmrecord
"$bin" -prepare "$CACHE/plugins" -openclaw "$OPENCLAW_DIR" discord slack codex
