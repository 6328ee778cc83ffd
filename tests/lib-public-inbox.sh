# tests/lib-public-inbox.sh - a real public-inbox server for the tests.
#
# Source after lib.sh. pi_init builds an empty v2 inbox "test"
# (address test@example.invalid) with its configuration in the test's
# private HOME; pi_deliver delivers messages to it through
# public-inbox-mda (spam checking off); pi_start serves it with
# public-inbox-httpd on 127.0.0.1 at a free port (pi_url prints the
# inbox's base URL), pi_stop stops it (also when the test exits).
# Sets the PI prerequisite only when public-inbox is installed.

if command -v public-inbox-init >/dev/null &&
   command -v public-inbox-mda >/dev/null &&
   command -v public-inbox-httpd >/dev/null; then
	test_set_prereq PI
else
	SKIP_REASON='public-inbox (public-inbox-init, -mda, -httpd) is not installed'
fi

export PI_CONFIG=$HOME/.public-inbox/config
PI_DIR=$TRASH/pi

# The server's process id is kept in a file: test bodies run in
# subshells, and any of them may start or stop it.
pi_stop() {
	local pid i
	[ -f "$PI_DIR/pid" ] || return 0
	pid=$(cat "$PI_DIR/pid")
	rm -f "$PI_DIR/pid"
	kill "$pid" 2>/dev/null || return 0
	for i in $(seq 50); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -9 "$pid" 2>/dev/null || :
}
trap 'pi_stop; rm -rf "$TRASH"' EXIT

pi_init() {
	mkdir -p "$PI_DIR/emergency" &&
	public-inbox-init -V2 -L full test "$PI_DIR/inbox" \
		http://127.0.0.1/test test@example.invalid &&
	git config -f "$PI_CONFIG" publicinboxmda.spamcheck none &&
	git config -f "$PI_CONFIG" publicinbox.test.filter PublicInbox::Filter::Base
}

# pi_deliver FILE...: one message per file, as the list would.
pi_deliver() {
	local f
	for f in "$@"; do
		ORIGINAL_RECIPIENT=test@example.invalid \
		PI_EMERGENCY=$PI_DIR/emergency \
			public-inbox-mda --no-precheck <"$f" || return 1
	done
	# a message public-inbox would not take lands here
	! ls "$PI_DIR/emergency"/*/* >/dev/null 2>&1
}

pi_start() {
	local port i
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])') || return 1
	: >"$PI_DIR/httpd.log" || return 1
	public-inbox-httpd -W 0 -l "http://127.0.0.1:$port" \
		>"$PI_DIR/httpd.log" 2>&1 &
	echo $! >"$PI_DIR/pid"
	echo "http://127.0.0.1:$port/test/" >"$PI_DIR/url"
	for i in $(seq 100); do
		grep -q "bound http://127.0.0.1:$port" "$PI_DIR/httpd.log" && return 0
		kill -0 "$(cat "$PI_DIR/pid")" 2>/dev/null || break
		sleep 0.1
	done
	cat "$PI_DIR/httpd.log" >&2
	return 1
}

pi_url() { cat "$PI_DIR/url"; }

# mbox_of FILE...: the messages as one mbox (as b4 mbox writes it).
mbox_of() {
	local f
	for f in "$@"; do
		echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
		cat "$f"
		echo
	done
}
