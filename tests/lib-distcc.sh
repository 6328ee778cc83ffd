# Sourced by the tests that run a real distccd (t9004, t9006).
# DISTCCD_USER: the user distccd runs as when it is started as root.

# distccd_start: a distccd on 127.0.0.1:$PORT logging to $TRASH/distccd.log
distccd_start() {
	PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])') || return 1
	# its log on stderr, written by this shell: nobody cannot reach $TRASH
	distccd --daemon --no-detach --allow 127.0.0.1 --listen 127.0.0.1 \
		--port "$PORT" ${DISTCCD_USER:+--user "$DISTCCD_USER"} --log-level info --log-stderr \
		2>"$TRASH/distccd.log" &
	echo $! >"$TRASH/distccd.pid" &&
	for _ in $(seq 50); do
		grep -q "listening on 127.0.0.1:$PORT" "$TRASH/distccd.log" && return 0
		sleep 0.1
	done
	echo "distccd did not start"; cat "$TRASH/distccd.log"; return 1
}
# distccd_stop: end that distccd and its preforked children, by pid
distccd_stop() {
	local pid kids
	[ -s "$TRASH/distccd.pid" ] || return 0
	pid=$(cat "$TRASH/distccd.pid")
	kids=$(ps -o pid= --ppid "$pid" 2>/dev/null || :)
	kill "$pid" $kids 2>/dev/null || :
	wait "$pid" 2>/dev/null || :
	rm -f "$TRASH/distccd.pid"
}
