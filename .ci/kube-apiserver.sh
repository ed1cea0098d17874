#!/usr/bin/env bash
# Builds kube-apiserver from the k8s.io/kubernetes Go module into the cache
# (RECIPES.md) and prints its path. Reuses a cached binary when present.
# The tool module lives in the cache, never in the repository.
set -euo pipefail
KUBE_VERSION=${KUBE_VERSION:-1.37.2}
CACHE=${OCCKIT_CACHE:-$HOME/.cache/occkit}
bin="$CACHE/bin/kube-apiserver-v$KUBE_VERSION"
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi
mod="$CACHE/kas-v$KUBE_VERSION"
minor=$(echo "$KUBE_VERSION" | cut -d. -f2)
mkdir -p "$mod" "$CACHE/bin"
cd "$mod"
if [ ! -f go.mod ]; then
  go mod init example.invalid/kas >/dev/null 2>&1
  go mod download -json "k8s.io/kubernetes@v$KUBE_VERSION" >/dev/null
  f=$(go env GOMODCACHE)/cache/download/k8s.io/kubernetes/@v/v$KUBE_VERSION.mod
  { echo "require k8s.io/kubernetes v$KUBE_VERSION"; echo "replace ("
    grep -E '=> ./staging' "$f" | awk -v v="v0.$minor.${KUBE_VERSION##*.}" '{print "\t"$1" => "$1" "v}'; echo ")"; } >> go.mod
  printf '//go:build tools\n\npackage tools\n' > tools.go
fi
LD="-X k8s.io/component-base/version.gitVersion=v$KUBE_VERSION -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$minor"
GOFLAGS=-mod=mod go build -ldflags "$LD" -o "$bin.tmp" k8s.io/kubernetes/cmd/kube-apiserver
mv "$bin.tmp" "$bin"
echo "$bin"
