#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The test tiers: tools/testing/check.py (its header: the usage, the
# lanes, the output), which runs the suites that the registry
# tools/testing/vxu4/suites/registry.toml lists, then one closing line
# "N passed, N failed".
#
#   tools/testing/check.sh [check|ci|full|debug]     a tier (make check...)
#   tools/testing/check.sh --suite TARGET|ID [TIER]  one suite alone
#   tools/testing/check.sh --targets                 the one-suite make targets
#   tools/testing/check.sh --plan [TIER | --suite TARGET|ID [TIER]]
#                                                    what would run, and where
#
# With the system's python3 (make deps installs it: tomllib, 3.11 or
# later), isolated (-I) from the caller's Python settings.

set -euo pipefail

here=$(dirname "$0")
if [ -x /usr/bin/python3 ]; then py=/usr/bin/python3; else py=python3; fi
exec "$py" -I "$here/check.py" "$@"
