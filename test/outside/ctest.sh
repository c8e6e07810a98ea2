#!/bin/sh
# The ctest entry "outside": installs the outside suites
# (scripts/setup-outside.sh), then runs their quick sample on SKMD and PoCL.
# Exits 77 (skipped) when the suites cannot be installed.
#   ctest.sh BUILD-DIR
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
log=$1/outside-setup.log
if ! "$root/scripts/setup-outside.sh" > "$log" 2>&1; then
  tail -5 "$log"
  echo "outside: the suites cannot be installed (above; $log): skipped"
  exit 77
fi
exec python3 "$here/run.py" "$1" --quick
