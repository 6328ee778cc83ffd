#!/usr/bin/env bash
test_description='feedback: unreadable records, a series without versions, a huge reply'
. "$(dirname "$0")/lib.sh"

SEED=$SRC_DIR/tests/t0001/seed-001-binder-defer-complete-v2.mbox
export KSERIES_NO_RANGE_DIFF=1

# store DIR: v2 of TF_DEFER_COMPLETE as posted (seed 001), its review
# ingested (4 records).
mkstore() {
	d=$1/series/defer && mkdir -p $d/v2 &&
	git config -f $d/series.conf series.title "rust_binder: add TF_DEFER_COMPLETE flag" &&
	git config -f $d/series.conf series.base v7.2.13 &&
	git config -f $d/series.conf version.2.origin posted &&
	awk "NR > 1 && /^From mboxrd@z/ { exit } { print }" "$SEED" \
		>$d/v2/0001-rust_binder-add-TF_DEFER_COMPLETE.patch &&
	(cd "$1" && kseries feedback ingest defer "$SEED" >/dev/null)
}

test_expect_success 'a record that does not parse is skipped with a warning' '
	mkstore st &&
	echo "not a record" >st/series/defer/feedback/0123456789ab &&
	(cd st && kseries list >../out 2>../err) &&
	grep "^defer .* 4 open$" out &&
	grep "0123456789ab.: not a feedback record, skipped" err &&
	(cd st && kseries feedback defer >../out 2>../err) &&
	test_line_count = 4 out &&
	grep "not a feedback record, skipped" err
'

test_expect_success 'a record whose Id is not its name is skipped' '
	mkstore st2 &&
	f=$(ls st2/series/defer/feedback | head -n 1) &&
	sed "s/^Id: .*/Id: 0123456789ab/" st2/series/defer/feedback/$f >x &&
	mv x st2/series/defer/feedback/0123456789ac &&
	(cd st2 && kseries feedback defer >../out 2>../err) &&
	test_line_count = 4 out &&
	grep "0123456789ac.: not a feedback record, skipped" err
'

test_expect_success 'resolve of a record that does not parse: one error' '
	(cd st && test_expect_code 128 kseries feedback resolve 0123456789ab --status wontfix 2>../err) &&
	test_line_count = 1 err &&
	grep "^kseries: fatal: cannot parse the record .0123456789ab.$" err
'

test_expect_success 'ingest into a series without versions is refused' '
	mkdir -p empty/series/e &&
	git config -f empty/series/e/series.conf series.title t &&
	(cd empty && test_must_fail kseries feedback ingest e "$SEED" 2>../err) &&
	test_line_count = 1 err &&
	grep "^kseries: error: series .e. has no versions" err &&
	test ! -e empty/series/e/feedback
'

# A reply of 20 MB to the patch: its comment text is larger than a
# record may be.
test_expect_success 'a 20 MB reply: ingested truncated, with a note, and read back' '
	mkstore big &&
	{
		echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
		echo "From: Big Mouth <big@example.invalid>"
		echo "Subject: Re: [PATCH v2] rust_binder: add TF_DEFER_COMPLETE flag"
		echo "Message-ID: <huge@example.invalid>"
		echo "In-Reply-To: $(sed -n "s/^Message-I[Dd]: //p" big/series/defer/v2/0001-*.patch | head -n 1)"
		echo "Date: Tue, 01 Dec 2026 10:00:00 +0000"
		echo
		yes "This is a very long comment line that goes on and on and on." |
			head -c 20000000
		echo
	} >huge.mbox &&
	(cd big && kseries feedback ingest defer ../huge.mbox >../out 2>../err) &&
	grep "1 feedback record(s) written" out &&
	f=$(grep -l "^Message-Id: <huge@example.invalid>" big/series/defer/feedback/*) &&
	test "$(stat -c %s "$f")" -le 16777216 &&
	tail -n 1 "$f" | grep "^\[kseries: .* truncated" &&
	(cd big && kseries list >../out 2>../err) &&
	test ! -s err &&
	grep "^defer .* 5 open$" out &&
	(cd big && kseries feedback defer >../out 2>../err) &&
	test ! -s err && test_line_count = 5 out &&
	id=$(basename "$f") &&
	(cd big && kseries feedback resolve $id --status wontfix >../out) &&
	grep "defer $id: wontfix" out &&
	(cd big && kseries feedback ingest defer ../huge.mbox >../out) &&
	grep "0 feedback record(s) written, 1 unchanged" out
'

test_expect_success 'a record too large to read (from an older kseries): list and resolve do not break' '
	mkstore old &&
	f=$(ls old/series/defer/feedback | head -n 1) &&
	p=old/series/defer/feedback/$f &&
	yes "padding padding padding padding padding padding padding" |
		head -c 17000000 >>"$p" &&
	(cd old && kseries list >../out 2>../err) || :
	! grep -- "-1 open" out &&
	grep "^defer .* [0-9][0-9]* open$" out &&
	(cd old && test_expect_code 128 kseries feedback resolve $f --status wontfix 2>../err) &&
	grep "too large" err
'

test_done
