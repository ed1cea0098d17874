#!/bin/sh
# A stand-in for `codex exec --json` used by the runner tests. The first
# argument picks a behaviour; the rest are its parameters. Every mode also
# prints planted secrets to both streams, which must never reach a record.
secret="sk-live-PLANTED-SECRET-0123456789"
echo "trace: session $secret" >&2
mode=$1
shift
case "$mode" in
replay) # replay STREAM [EXIT]: print a recorded stream, exit with EXIT
	cat "$1"
	echo "debug: token $secret" >&2
	exit "${2:-0}"
	;;
env) # env FILE: record the environment, then answer READY
	env > "$1"
	env >&2
	printf '%s\n' '{"type":"turn.started"}' \
		'{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"READY"}}' \
		'{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":1}}'
	;;
sleep) # sleep SECONDS: start a turn and hang past any cap
	echo '{"type":"thread.started","thread_id":"t"}'
	echo '{"type":"turn.started"}'
	exec sleep "$1"
	;;
child) # child PIDFILE: spawn a grandchild that must die with the probe
	sleep 300 &
	echo $! > "$1"
	echo '{"type":"turn.started"}'
	echo '{"type":"item.updated","item":{"type":"reasoning","text":"'"$secret"'"}}'
	wait
	;;
signal) # signal NAME: die by a signal
	echo '{"type":"turn.started"}'
	kill -s "$1" $$
	sleep 5
	;;
sequence) # sequence DIR: replay DIR/N.jsonl with DIR/N.exit on the N-th run
	n=$(($(cat "$1/count" 2>/dev/null || echo 0) + 1))
	echo "$n" > "$1/count"
	if [ -f "$1/$n.sleep" ]; then
		exec sleep "$(cat "$1/$n.sleep")"
	fi
	[ -f "$1/$n.stderr" ] && cat "$1/$n.stderr" >&2
	cat "$1/$n.jsonl"
	exit "$(cat "$1/$n.exit" 2>/dev/null || echo 0)"
	;;
flood) # flood: print more than any output cap
	yes '{"type":"item.updated","item":{"type":"reasoning","text":"x"}}'
	;;
*)
	echo "unknown mode" >&2
	exit 64
	;;
esac
