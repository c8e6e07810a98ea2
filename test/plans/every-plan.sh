#!/usr/bin/env bash
# every-plan.sh SKMD_RUN BUNDLE
#
# Every --plan on every kind of device list, each checked bit for bit
# against the CPU alone: the CPU alone, a discrete device alone (the
# stand-in for one GPU alone), the CPU with two discrete devices, and,
# run under with-servers.sh (SKMD_TEST_DEVICES=cpu,remote:...), a server's
# devices alone and beside the CPU. `auto` runs with profiles made on the
# spot (SKMD_PROFILE=auto), and without them ends with a clear error.
# Each device the list opens is also a plan alone. A crash, a refused plan
# or a failed check fails the test.
set -euo pipefail
run=$1 bundle=$2
dir=$(mktemp -d /tmp/skmd-every-plan.XXXXXX)
trap 'rm -rf "$dir"' EXIT

lists=(cpu discrete cpu,discrete,discrete)
if [ -n "${SKMD_TEST_DEVICES:-}" ]; then
  lists+=("$SKMD_TEST_DEVICES" "${SKMD_TEST_DEVICES#cpu,}")
fi
launch=(matmul_tiled --global=256,256 --local=16,16 --arg=65536 --arg=65536:random:2
        --arg=65536:zero --arg=256)
failed=0
for devices in "${lists[@]}"; do
  # The devices the list opens (the CPU always among them), each a plan
  # of its own: that device alone.
  names=$("$run" "$bundle" "${launch[@]}" --devices="$devices" --plan=none 2>&1 |
          sed -n 's/.*or a device name\[@<chunks>\] (\(.*\))$/\1/p' | tr -d ',' || true)
  [ -n "$names" ] || { echo "FAILED  --devices=$devices: no device names"; failed=1; continue; }
  plans=(default auto auto-unprofiled linear proportional even $names)
  for plan in "${plans[@]}"; do
    args=(--devices="$devices" --check)
    env=(SKMD_PROFILE_DB="$dir/profiles-${devices//[:\/,]/_}.db")
    want="check: ok"
    case $plan in
      default) ;;
      auto) args+=(--plan=auto --explain); env+=(SKMD_PROFILE=auto) ;;
      # Asked for by name, the model's plan without profiles is a clear
      # error (the default plan falls back instead).
      auto-unprofiled) args+=(--plan=auto); env=(SKMD_PROFILE_DB="$dir/none.db" SKMD_PROFILE=off)
                       want="error: launch: no profiles of this kernel" ;;
      *) args+=(--plan="$plan") ;;
    esac
    status=0
    env "${env[@]}" timeout 300 "$run" "$bundle" "${launch[@]}" "${args[@]}" >"$dir/out" 2>&1 ||
      status=$?
    # A crash is a signal (exit > 128); an error exits 1 and says why.
    if [ $status -le 1 ] && grep -q "$want" "$dir/out"; then
      echo "ok      --devices=$devices --plan=$plan"
    else
      echo "FAILED  --devices=$devices --plan=$plan (exit $status):"
      sed 's/^/    /' "$dir/out" | tail -20
      failed=1
    fi
  done
done
exit $failed
