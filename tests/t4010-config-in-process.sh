#!/usr/bin/env bash
test_description='the options git config gives, read in-process: the files git reads, in its precedence; a hostile value'
. "$(dirname "$0")/lib.sh"

SEED=$SRC_DIR/tests/t0001/seed-001-binder-defer-complete-v2.mbox
export KSERIES_CACHE=$TRASH/cache
unset GIT_CONFIG_GLOBAL GIT_CONFIG_SYSTEM XDG_CONFIG_HOME GIT_DIR

# json: "json" when kseries feedback printed JSON, else "text"
json() {
	kseries feedback defer >out &&
	if test "$(head -c 1 out)" = "["; then echo json; else echo text; fi
}

test_expect_success 'setup: a store in a repository, with feedback' '
	mkdir -p store/series &&
	cd store &&
	git init -q . &&
	kseries import defer "$SEED" >/dev/null &&
	kseries feedback ingest defer "$SEED" >/dev/null &&
	test "$(json)" = text
'

test_expect_success 'system < XDG < global < repository < GIT_CONFIG_COUNT, each over the one before' '
	cd store &&
	printf "[kseries \"feedback\"]\n\tjson = true\n" >"$TRASH/system" &&
	test "$(GIT_CONFIG_NOSYSTEM= GIT_CONFIG_SYSTEM=$TRASH/system json)" = json &&
	test "$(GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_SYSTEM=$TRASH/system json)" = text &&
	mkdir -p "$HOME/.config/git" &&
	printf "[kseries \"feedback\"]\n\tjson = false\n" >"$HOME/.config/git/config" &&
	test "$(GIT_CONFIG_NOSYSTEM= GIT_CONFIG_SYSTEM=$TRASH/system json)" = text &&
	git config --global kseries.feedback.json yes &&
	test "$(json)" = json &&
	git config kseries.feedback.json off &&
	test "$(json)" = text &&
	test "$(GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=kseries.feedback.json GIT_CONFIG_VALUE_0=on json)" = json &&
	git config --unset kseries.feedback.json &&
	test "$(json)" = json
'

test_expect_success 'XDG_CONFIG_HOME moves the XDG file; GIT_CONFIG_GLOBAL replaces both user files' '
	cd store &&
	git config --global --unset kseries.feedback.json &&
	mkdir -p "$TRASH/xdg/git" &&
	printf "[kseries \"feedback\"]\n\tjson = true\n" >"$TRASH/xdg/git/config" &&
	test "$(json)" = text &&
	test "$(XDG_CONFIG_HOME=$TRASH/xdg json)" = json &&
	printf "[kseries \"feedback\"]\n\tjson = 1\n" >"$TRASH/global" &&
	test "$(GIT_CONFIG_GLOBAL=$TRASH/global json)" = json &&
	git config --global kseries.feedback.json true &&
	test "$(GIT_CONFIG_GLOBAL=/dev/null json)" = text
'

test_expect_success 'the repository git finds: GIT_DIR, and up from a subdirectory; none outside' '
	cd store &&
	git config kseries.feedback.json false &&
	test "$(json)" = text &&
	mkdir -p sub && (cd sub && test "$(KSERIES_DIR=.. json)" = text) &&
	test "$(GIT_DIR=/nonexistent json)" = json &&
	git config --unset kseries.feedback.json
'

test_expect_success 'an include in the user config is followed, as git does' '
	cd store &&
	git config --global --unset kseries.feedback.json &&
	printf "[kseries \"feedback\"]\n\tjson = true\n" >"$TRASH/included" &&
	git config --global include.path "$TRASH/included" &&
	test "$(json)" = json &&
	git config --global --unset include.path &&
	test "$(json)" = text
'

test_expect_success 'a hostile value: one error line, its control characters escaped, nothing injected' '
	cd store &&
	git config --global kseries.feedback.json "$(printf "maybe\033]0;owned\007\nkseries.feedback.json=true")" &&
	test_expect_code 128 kseries feedback defer >out 2>err &&
	test_line_count = 1 err &&
	printf "%s\n" "kseries: fatal: bad boolean config value '\''maybe\\033]0;owned\\007\\012kseries.feedback.json=true'\'' for '\''kseries.feedback.json'\''" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	git config --global --unset kseries.feedback.json
'

test_expect_success 'a value with a line break reaches the option whole, no key forged' '
	cd store &&
	git config --global kseries.import.base "$(printf "v7.2.0\nkseries.import.version=5")" &&
	test_expect_code 128 kseries import forged "$SEED" >/dev/null 2>err &&
	test_line_count = 1 err &&
	grep -F "kseries: fatal: bad base '\''v7.2.0\012kseries.import.version=5'\''" err &&
	test ! -e series/forged &&
	git config --global --unset kseries.import.base
'

test_done
