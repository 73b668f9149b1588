#!/usr/bin/env bash
# Creates the OS users of the authority-mode tests (idempotent; needs root): sg-auth-a the authority,
# sg-auth-b the agent (owns the workspace, has a shell; sg-auth-a is in its group), sg-auth-c an outsider.
set -euo pipefail
if [ "$(id -u)" -ne 0 ]; then
  echo "authority-test-users: must run as root to create users (got uid $(id -u))" >&2
  exit 1
fi
make_user() {
  local name=$1 shell=$2
  if ! id "$name" >/dev/null 2>&1; then
    useradd --user-group --no-create-home --home-dir /nonexistent --shell "$shell" "$name"
  fi
}
make_user sg-auth-a /usr/sbin/nologin
make_user sg-auth-b /bin/bash
make_user sg-auth-c /bin/bash
# The authority shares the agent's workspace through the agent's group (README: Authority mode).
usermod -aG sg-auth-b sg-auth-a
