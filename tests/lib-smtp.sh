# tests/lib-smtp.sh - a real SMTP server on 127.0.0.1 for the tests of
# kseries send (tests/t2400/smtp-sink.py, aiosmtpd).
#
# Source after lib.sh. Sets the SMTP prerequisite when a python3 with
# aiosmtpd (Debian's python3-aiosmtpd is /usr/bin/python3's) and git
# send-email are there. start_sink DIR [REFUSED...] starts the server
# (port in $PORT, pid in DIR.pid) and points the scratch HOME's
# sendemail.smtpServer/smtpServerPort at it; stop_sink stops it and
# turns the CRLF lines of what it received (DIR/N.eml, envelope in
# DIR/N.env) into text. smtp_cleanup kills what a failed test body left
# running (each body is a subshell); the test's EXIT trap calls it.

SMTP_SINK=$TEST_DIR/t2400/smtp-sink.py
PY=
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import aiosmtpd' 2>/dev/null; then
		PY=$p
		break
	fi
done
if [ -n "$PY" ] && [ -x "$(git --exec-path)/git-send-email" ]; then
	test_set_prereq SMTP
else
	SKIP_REASON='no python3-aiosmtpd or no git send-email'
fi

start_sink() {
	local dir=$1 i=0
	shift
	rm -rf "$dir" && mkdir -p "$dir" || return 1
	"$PY" "$SMTP_SINK" "$dir" "$@" &
	echo $! >"$dir.pid"
	SINK_DIR=$dir
	while [ ! -s "$dir/port" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	PORT=$(cat "$dir/port") &&
	git config --global sendemail.smtpServer 127.0.0.1 &&
	git config --global sendemail.smtpServerPort "$PORT"
}

stop_sink() {
	local pid f
	pid=$(cat "$SINK_DIR.pid") &&
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rm -f "$SINK_DIR.pid"
	# SMTP carries CRLF lines; compare them as text
	for f in "$SINK_DIR"/*.eml; do
		[ -f "$f" ] && sed -i "s/\r\$//" "$f"
	done
	return 0
}

# free_port: a TCP port of 127.0.0.1 that nothing listens on (now).
free_port() {
	"$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

smtp_cleanup() {
	local f
	for f in "$TRASH"/*.pid; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	return 0
}

# make_series NAME N-PATCHES: a version 1 of ours, To/Cc in series.conf,
# made from $BASE (a tree with drivers/demo/demo.c) into $STORE
make_series() {
	local w=$TRASH/work-$1 i
	git clone -q "$BASE" "$w" &&
	for i in $(seq 1 "$2"); do
		echo "int $1_$i;" >>"$w/drivers/demo/demo.c" &&
		git -C "$w" commit -q -am "demo: add $1 $i" -m "Why $i." || return 1
	done &&
	mkdir -p "$STORE/series/$1/v1" &&
	git -C "$w" format-patch -q --cover-letter --base=v7.2.13 \
		-o "$STORE/series/$1/v1" v7.2.13..HEAD &&
	conf=$STORE/series/$1/series.conf &&
	git config -f "$conf" series.title "demo: add $1" &&
	git config -f "$conf" series.change-id "20260101-$1-0123456789ab" &&
	git config -f "$conf" series.prefix PATCH &&
	git config -f "$conf" series.to "Demo List <list@example.org>" &&
	git config -f "$conf" series.cc "Rex Reviewer <rex@example.org>" &&
	git config -f "$conf" version.1.origin ours
}

# send_test_env: what the send tests share: a base tree at $BASE and a
# store at $STORE (made by the tests), a scratch cache, Sam Sender as
# the author, fixed dates, sending allowed, and the sink stopped and
# $TRASH removed at exit.
send_test_env() {
	BASE=$TRASH/base
	STORE=$TRASH/store
	export KSERIES_TREE=$BASE KSERIES_DIR=$STORE KSERIES_CACHE=$TRASH/cache
	export GIT_AUTHOR_NAME="Sam Sender" GIT_AUTHOR_EMAIL=sam@example.org
	export GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
	unset KSERIES_NO_SEND
	trap 'smtp_cleanup; rm -rf "$TRASH"' EXIT
}
