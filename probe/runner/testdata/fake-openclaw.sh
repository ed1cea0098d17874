#!/bin/sh
# A stand-in for `openclaw models status --json --probe` used by the
# runner tests. The first argument picks a behaviour.
secret="sk-live-PLANTED-SECRET-0123456789"
echo "probe: using key $secret" >&2
mode=$1
shift
case "$mode" in
print) # print FILE [EXIT]: print a recorded status, exit with EXIT
	cat "$1"
	exit "${2:-0}"
	;;
env) # env FILE OUTPUT: record the environment and the config path's content
	env > "$1"
	cat "$OPENCLAW_CONFIG_PATH" >> "$1"
	cat "$2"
	;;
starve) # starve CGROUPDIR USEC: account USEC of CPU wait, then hang past the cap
	echo "some avg10=90.00 avg60=50.00 avg300=20.00 total=$2" > "$1/cpu.pressure"
	exec sleep 30
	;;
*)
	exit 64
	;;
esac
