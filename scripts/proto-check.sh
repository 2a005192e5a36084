#!/usr/bin/env bash
# The proto toolchain's checks, run by CI on a clean clone (buf from the npm package @bufbuild/buf;
# no network, no Buf Schema Registry: every imported proto is in proto/ or ships inside buf):
#   1. buf lint       - the STANDARD rules (buf.yaml)
#   2. buf breaking   - against the protos of the last release, checked in as an image under
#                       proto/releases/ (works on any clone, shallow or not, with or without tags)
#   3. the reflection image proto/descriptor-set.binpb is what buf builds from proto/ now
# On release: npx buf build --exclude-source-info --as-file-descriptor-set -o proto/releases/<version>.binpb
# and point RELEASED at it.
set -euo pipefail
cd "$(dirname "$0")/.."

BUF=node_modules/.bin/buf
RELEASED=proto/releases/0.1.0.binpb
IMAGE=proto/descriptor-set.binpb

echo "buf lint"
"$BUF" lint

echo "buf breaking --against $RELEASED"
"$BUF" breaking --against "$RELEASED"

echo "reflection image $IMAGE is current"
built=$(mktemp)
trap 'rm -f "$built"' EXIT
"$BUF" build --as-file-descriptor-set -o "$built#format=binpb"
if ! cmp -s "$built" "$IMAGE"; then
  echo "$IMAGE is stale: run npx buf build --as-file-descriptor-set -o $IMAGE" >&2
  exit 1
fi
echo "proto checks passed"
