#!/usr/bin/env bash
test_description='colour: status words on a terminal only; NO_COLOR, --no-color, kseries.color'
. "$(dirname "$0")/lib.sh"

export KSERIES_CACHE=$TRASH/cache
unset NO_COLOR
export TERM=xterm

if command -v script >/dev/null 2>&1; then
	test_set_prereq PTY
else
	SKIP_REASON="no script(1) (util-linux) for a terminal"
fi

# A store with one series whose v1 has cached results of four stages.
test_expect_success 'setup' '
	mkdir -p store/series/s/v1 &&
	printf "[series]\n\ttitle = t\n\tbase = v7.2.13\n" >store/series/s/series.conf &&
	r=$KSERIES_CACHE/results/s/v1 &&
	mkdir -p "$r" &&
	for x in apply:pass format:warn checkpatch:fail sparse:skip; do
		echo "{\"status\": \"${x#*:}\"}" >"$r/${x%:*}.json" || return 1
	done
'

# on_tty CMD...: CMD with stdout (and stderr) on a pseudo-terminal
on_tty() {
	script -qec "$*" /dev/null | tr -d "\r"
}

esc=$(printf "\033")

test_expect_success 'piped: no colour' '
	cd store &&
	kseries status >out &&
	grep "^s  *v1  apply:pass format:warn checkpatch:fail sparse:skip$" out &&
	! grep -q "$esc" out
'

test_expect_success PTY 'on a terminal: each status word in its colour' '
	cd store &&
	on_tty "$KSERIES" status >out &&
	grep -q "apply:${esc}\[32mpass${esc}\[m" out &&
	grep -q "format:${esc}\[33mwarn${esc}\[m" out &&
	grep -q "checkpatch:${esc}\[1;31mfail${esc}\[m" out &&
	grep -q "sparse:${esc}\[36mskip${esc}\[m" out &&
	grep -q "^s  *v1 " out
'

test_expect_success PTY 'NO_COLOR (not empty) turns it off; empty does not' '
	cd store &&
	NO_COLOR=1 on_tty "$KSERIES" status >out &&
	grep "apply:pass" out &&
	! grep -q "$esc" out &&
	NO_COLOR= on_tty "$KSERIES" status >out &&
	grep -q "$esc\[32mpass" out
'

test_expect_success PTY 'TERM=dumb and --no-color turn it off' '
	cd store &&
	TERM=dumb on_tty "$KSERIES" status >out &&
	! grep -q "$esc" out &&
	on_tty "$KSERIES" --no-color status >out &&
	grep "apply:pass" out &&
	! grep -q "$esc" out
'

test_expect_success PTY 'kseries.color=false, or git color.ui=never, turn it off' '
	cd store &&
	git config --global kseries.color false &&
	on_tty "$KSERIES" status >out &&
	grep "apply:pass" out &&
	! grep -q "$esc" out &&
	git config --global --unset kseries.color &&
	git config --global color.ui never &&
	on_tty "$KSERIES" status >out &&
	! grep -q "$esc" out &&
	git config --global kseries.color auto &&
	on_tty "$KSERIES" status >out &&
	grep -q "$esc\[32mpass" out &&
	git config --global --unset color.ui &&
	git config --global --unset kseries.color
'

test_expect_success 'always: --color and kseries.color=always colour a pipe too, over NO_COLOR' '
	cd store &&
	kseries --color status >out &&
	grep -q "$esc\[32mpass" out &&
	git config --global kseries.color always &&
	NO_COLOR=1 kseries status >out &&
	grep -q "$esc\[1;31mfail" out &&
	kseries --no-color status >out &&
	! grep -q "$esc" out &&
	git config --global --unset kseries.color
'

# a patch that adds a file applies to any base
test_expect_success TREE 'check: the status word in colour, never in JSON' '
	mkdir -p store/series/new/v1 &&
	printf "[series]\n\ttitle = t\n\tbase = v7.2.13\n\tprefix = PATCH\n" \
		>store/series/new/series.conf &&
	cat >store/series/new/v1/0001-doc.patch <<-\EOM &&
	From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
	From: A U Thor <author@example.org>
	Date: Mon, 30 Nov 2026 10:00:00 +0000
	Subject: [PATCH] doc: a note

	A note.

	Signed-off-by: A U Thor <author@example.org>
	---
	 Documentation/kseries-note.txt | 1 +
	 1 file changed, 1 insertion(+)
	 create mode 100644 Documentation/kseries-note.txt

	diff --git a/Documentation/kseries-note.txt b/Documentation/kseries-note.txt
	new file mode 100644
	index 0000000000000000000000000000000000000000..519dd581e50e5b45d3b3c76c3172e9c3ec293488
	--- /dev/null
	+++ b/Documentation/kseries-note.txt
	@@ -0,0 +1 @@
	+note
	-- 
	2.39.5
	EOM
	cd store &&
	kseries --color check new --stage apply >out &&
	grep "^new  *v1  apply  *${esc}\[32mpass${esc}\[m " out &&
	kseries check new --stage apply >out &&
	grep "^new  *v1  apply  *pass " out &&
	kseries --color check new --stage apply --json >out &&
	grep "\"status\": \"pass\"" out &&
	! grep -q "$esc" out
'

test_done
