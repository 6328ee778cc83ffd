#!/usr/bin/env bash
test_description='review extract on a large generated mbox: the light read gives what GMime gives'
. "$(dirname "$0")/lib.sh"

# The bench's input (tests/bench/mail-corpus.py): every mail the repo
# holds, copied with fresh Message-IDs. The reference is the same run
# with every mail parsed by GMime (KSERIES_MAIL_GMIME, mail.h): the
# straightforward path the light read must match byte for byte.
command -v python3 >/dev/null && test_set_prereq PYTHON
SKIP_REASON='python3 is needed to make the mbox'

test_expect_success PYTHON 'a 1200-message mbox' '
	python3 "$SRC_DIR/tests/bench/mail-corpus.py" review 1200 big.mbox &&
	test "$(grep -c "^From " big.mbox)" -ge 1200
'

test_expect_success PYTHON 'the same JSON as GMime reading every mail' '
	kseries review extract big.mbox --json >light.json &&
	KSERIES_MAIL_GMIME=1 kseries review extract big.mbox --json >gmime.json &&
	grep -q "\"reply_message_id\"" light.json &&
	test_cmp gmime.json light.json
'

test_expect_success PYTHON 'and with the review recovered from quotes' '
	kseries review extract big.mbox --json --quoted >light-q.json &&
	KSERIES_MAIL_GMIME=1 kseries review extract big.mbox --json --quoted >gmime-q.json &&
	test_cmp gmime-q.json light-q.json
'

test_expect_success PYTHON 'and from standard input' '
	kseries review extract - --json <big.mbox >stdin.json &&
	test_cmp gmime.json stdin.json
'

test_done
