#!/usr/bin/env bash
# Clone the current commit into an empty temporary folder (nothing beside it: no shared/
# rulebooks) and run the README's test command there, as a newcomer would. Extra arguments go
# to pytest. The citation check is expected to be the one skip ("rulebooks not found").
# Uncommitted changes are not in the clone: commit first.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
commit="$(git -C "$repo" rev-parse HEAD)"
tmp="$(mktemp -d)"
chmod 755 "$tmp"  # like a clone in /tmp: the storage test that runs the server as user nobody needs to read it
trap 'rm -rf "$tmp"' EXIT
git clone --quiet --no-hardlinks "$repo" "$tmp/trapworks"
git -C "$tmp/trapworks" checkout --quiet --detach "$commit"
echo "fresh clone of $commit in $tmp/trapworks (nothing beside it: $(ls -A "$tmp" | tr '\n' ' '))"
cd "$tmp/trapworks"
unset TRAPWORKS_RULEBOOKS TRAPWORKS_REQUIRE_RULEBOOKS
bash scripts/test.sh -p no:cacheprovider -rs "$@"
