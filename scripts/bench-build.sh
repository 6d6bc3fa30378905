#!/usr/bin/env bash
# The cost of a clean build of the agenthub binary at a commit: wall time,
# CPU time (user + system: what the build costs whatever else the machine
# does), peak memory of one compiler process, binary size and target/ size.
#
#   scripts/bench-build.sh [REV] [PROFILE]     # REV: default HEAD; PROFILE: release (default) or dev
#
# It clones REV into a temporary folder and builds there with an empty
# target/, so nothing cached here makes it look cheaper. Crates come from the
# local registry cache (fetched first, not timed).
set -euo pipefail
rev=${1:-HEAD}
profile=${2:-release}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$repo" worktree add --detach -q "$work/src" "$rev"
trap 'git -C "$repo" worktree remove --force "$work/src"; rm -rf "$work"' EXIT
cd "$work/src"
cargo fetch -q
flags=(--release)
[[ $profile == dev ]] && flags=()
/usr/bin/time -f '%e %U %S %M' -o "$work/time" \
    cargo build -q "${flags[@]}" -p agenthub-cli
read -r wall user sys rss <"$work/time"
dir=$([[ $profile == dev ]] && echo debug || echo release)
binary=$(stat -c %s "target/$dir/agenthub")
target=$(du -sb target | cut -f1)
awk -v rev="$(git rev-parse --short HEAD)" -v profile="$profile" -v wall="$wall" \
    -v cpu="$(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}')" -v rss="$rss" \
    -v binary="$binary" -v target="$target" 'BEGIN {
        printf "%s %s: wall %.0f s, cpu %.0f s, peak rss %.0f MB, binary %.1f MB, target %.2f GB\n",
            rev, profile, wall, cpu, rss / 1024, binary / 1048576, target / 1073741824
    }'
