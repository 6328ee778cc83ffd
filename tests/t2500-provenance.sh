#!/bin/bash
# The provenance stage on a small fixture store (tests/t2500/store): demo
# v2 was posted by Ann Author (its mails and replies are in v2/), v1 is a
# reconstructed record, v3 is ours, sent by Sam Sender (this scratch
# HOME's identity). v3 as stored passes; each seeded fabrication fails
# (or, for a tag carried over a changed patch, warns) with a finding that
# names its file and line.
test_description='kseries check --stage provenance: trailers traced to mails'
. "$(dirname "$0")/lib.sh"

BASE=$TRASH/base
STORE=$TRASH/store
V3=$STORE/series/demo/v3
export KSERIES_TREE=$BASE KSERIES_DIR=$STORE KSERIES_CACHE=$TRASH/cache

command -v python3 >/dev/null && test_set_prereq PYTHON

# the base the fixtures were written against: the same commit id
make_base() {
	git init -q -b master "$BASE" &&
	mkdir -p "$BASE/drivers/demo" &&
	echo "int a;" >"$BASE/drivers/demo/demo.c" &&
	git -C "$BASE" add . &&
	GIT_AUTHOR_NAME=B GIT_AUTHOR_EMAIL=b@example.org \
	GIT_COMMITTER_NAME=B GIT_COMMITTER_EMAIL=b@example.org \
	GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z \
		git -C "$BASE" commit -q -m base &&
	git -C "$BASE" tag v7.2.13
}

# fabricate FILE SED-EXPRESSION: a fresh copy of the store, one lie in v3.
fabricate() {
	rm -rf "$STORE" "$TRASH/cache" &&
	cp -R "$FIXTURES/store" "$STORE" &&
	sed -i "$2" "$V3/$1" &&
	! cmp -s "$V3/$1" "$FIXTURES/store/series/demo/v3/$1"
}

# has_finding FILE LINE SEVERITY TEXT: the JSON in ./json has it.
HAS_FINDING='
import json, sys
file, line, sev, text = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
found = [f for v in json.load(open("json")) for st in v["stages"]
         if st["stage"] == "provenance" for f in st["findings"]]
for f in found:
    if f["file"] == file and f["line"] == line and f["severity"] == sev \
       and text in f["message"]:
        sys.exit(0)
for f in found:
    print("#", f["file"], f["line"], f["severity"], f["message"])
sys.exit(1)
'
has_finding() { python3 -c "$HAS_FINDING" "$@"; }

test_expect_success 'setup: base tree, sender identity' '
	make_base &&
	git config --global user.name "Sam Sender" &&
	git config --global user.email sam@example.org
'

test_expect_success PYTHON 'v3 as stored passes: every trailer has its source' '
	rm -rf "$STORE" && cp -R "$FIXTURES/store" "$STORE" &&
	kseries check demo@v3 --stage provenance --json >json &&
	python3 -c "
import json, sys
st = [s for v in json.load(open(\"json\")) for s in v[\"stages\"] if s[\"stage\"] == \"provenance\"][0]
sys.exit(st[\"status\"] != \"pass\" or st[\"findings\"] != [])" &&
	log=$TRASH/cache/results/demo/v3/provenance.log &&
	grep "^0001-demo-add-b.patch:9: note: Reviewed-by: Rex Reviewer <rex@example.org>: given in <rex-1@example.org> (v2)$" "$log" &&
	grep "^0001-demo-add-b.patch:10: note: Acked-by: Ack Er <ack@example.org>: given in <ack-1@example.org> (v2)$" "$log" &&
	grep "^0002-demo-add-other.c.patch:8: note: Signed-off-by: Ann Author <ann@example.org>: as posted in v2 <v2-2@example.org>$" "$log"
'

test_expect_success PYTHON 'a re-check is cached; a new reply in a thread is an input' '
	kseries check demo@v3 --stage provenance --json >json &&
	grep "\"cached\": true" json &&
	echo >>"$STORE/series/demo/v2/thread.mbox" &&
	kseries check demo@v3 --stage provenance --json >json &&
	! grep "\"cached\": true" json
'

test_expect_success PYTHON 'fabrication 1: an invented Reviewed-by' '
	fabricate 0001-demo-add-b.patch "s/^Link: .*/Reviewed-by: Nobody Real <nobody@example.org>\n&/" &&
	test_expect_code 1 kseries check demo@v3 --stage provenance --json >json &&
	has_finding 0001-demo-add-b.patch 11 error "Reviewed-by: Nobody Real <nobody@example.org>: given in no mail the store holds"
'

test_expect_success PYTHON 'fabrication 2: a Signed-off-by of someone who never posted the patch' '
	fabricate 0002-demo-add-other.c.patch "s/^Signed-off-by: Ann.*/&\nSigned-off-by: Mal Lory <mal@example.org>/" &&
	test_expect_code 1 kseries check demo@v3 --stage provenance --json >json &&
	has_finding 0002-demo-add-other.c.patch 9 error "Signed-off-by: Mal Lory <mal@example.org>: that person never posted a Signed-off-by on this patch"
'

test_expect_success PYTHON 'fabrication 3: a tag carried over a patch that changed since' '
	fabricate 0002-demo-add-other.c.patch "s/^Signed-off-by: Ann.*/&\nTested-by: Tess Tester <tess@example.org>/" &&
	kseries check demo@v3 --stage provenance --json >json &&
	has_finding 0002-demo-add-other.c.patch 9 warning "given in <tess-1@example.org> on v2, but the patch changed since (v3 has another patch-id)"
'

test_expect_success PYTHON 'fabrication 4: a Co-developed-by without its Signed-off-by' '
	fabricate 0001-demo-add-b.patch "s/^Link: .*/&\nCo-developed-by: Sam Sender <sam@example.org>/" &&
	test_expect_code 1 kseries check demo@v3 --stage provenance --json >json &&
	has_finding 0001-demo-add-b.patch 12 error "Co-developed-by: Sam Sender <sam@example.org> is not followed by the same person"
'

test_expect_success PYTHON 'fabrication 5: a Link to a reconstructed Message-ID' '
	fabricate 0001-demo-add-b.patch "s|^Link: .*|Link: https://lore.kernel.org/r/v1-rec@example.org|" &&
	test_expect_code 1 kseries check demo@v3 --stage provenance --json >json &&
	has_finding 0001-demo-add-b.patch 11 error "names <v1-rec@example.org>, a Message-ID that was reconstructed, never posted"
'

test_expect_success PYTHON 'fabrication 6: a placeholder From:' '
	fabricate 0003-demo-add-e.patch "s/^From: Sam Sender <sam@example.org>/From: Kseries Developers <dev@kseries.invalid>/" &&
	test_expect_code 1 kseries check demo@v3 --stage provenance --json >json &&
	has_finding 0003-demo-add-e.patch 2 error "a placeholder identity, nobody'"'"'s address: From: Kseries Developers <dev@kseries.invalid>"
'

test_expect_success PYTHON 'fabrication 7: another author who never signed the patch off' '
	fabricate 0003-demo-add-e.patch "s/^From: Sam Sender <sam@example.org>/From: Carl Other <carl@example.org>/" &&
	test_expect_code 1 kseries check demo@v3 --stage provenance --json >json &&
	has_finding 0003-demo-add-e.patch 2 error "From: Carl Other <carl@example.org>: the author never posted a Signed-off-by on this patch"
'

test_expect_success PYTHON 'fabrication 8: a made-up @seeds.invalid link in the changelog' '
	fabricate 0000-cover-letter.patch "s|^- Link to v2: .*|- Link to v2: https://lore.kernel.org/r/20260201.1-ann@seeds.invalid|" &&
	test_expect_code 1 kseries check demo@v3 --stage provenance --json >json &&
	has_finding 0000-cover-letter.patch 11 error "names <20260201.1-ann@seeds.invalid>, a Message-ID that was reconstructed, never posted"
'

test_expect_success PYTHON 'fabrication 9: In-Reply-To a reconstructed Message-ID' '
	fabricate 0000-cover-letter.patch "0,/^Date: /s//In-Reply-To: <v1-rec@example.org>\n&/" &&
	test_expect_code 1 kseries check demo@v3 --stage provenance --json >json &&
	has_finding 0000-cover-letter.patch 3 error "names <v1-rec@example.org>, a Message-ID that was reconstructed"
'

test_expect_success PYTHON 'fabrication 10: a placeholder Signed-off-by' '
	fabricate 0003-demo-add-e.patch "s/^e completes the set.$/&\n\nSigned-off-by: Kseries Developers <dev@kseries.invalid>/" &&
	test_expect_code 1 kseries check demo@v3 --stage provenance --json >json &&
	has_finding 0003-demo-add-e.patch 8 error "a placeholder identity, nobody'"'"'s address: Signed-off-by: Kseries Developers"
'

test_expect_success PYTHON 'fabrication 11: a real reviewer'"'"'s tag on a patch they did not review' '
	fabricate 0002-demo-add-other.c.patch "s/^Signed-off-by: Ann.*/&\nReviewed-by: Rex Reviewer <rex@example.org>/" &&
	test_expect_code 1 kseries check demo@v3 --stage provenance --json >json &&
	has_finding 0002-demo-add-other.c.patch 9 error "Reviewed-by: Rex Reviewer <rex@example.org>: given in no mail the store holds"
'

test_expect_success PYTHON 'a tag given to a patch the store lacks: it cannot be compared' '
	fabricate 0002-demo-add-other.c.patch "s/^Signed-off-by: Ann.*/&\nReviewed-by: Old Timer <old@example.org>/" &&
	cat >>"$STORE/series/demo/v2/thread.mbox" <<-\EOF &&

	From old@example.org Mon Feb  2 12:00:00 2026
	From: Old Timer <old@example.org>
	Subject: Re: [PATCH v2 2/2] demo: add other.c
	Date: Mon, 2 Feb 2026 12:00:00 +0000
	Message-Id: <old-1@example.org>
	In-Reply-To: <v2-9@example.org>

	Reviewed-by: Old Timer <old@example.org>
	EOF
	kseries check demo@v3 --stage provenance --json >json &&
	has_finding 0002-demo-add-other.c.patch 9 warning "given in <old-1@example.org> on v2, to a patch whose diff the store does not hold"
'

test_expect_success PYTHON 'a reconstructed record is reported, never failed' '
	rm -rf "$STORE" "$TRASH/cache" && cp -R "$FIXTURES/store" "$STORE" &&
	git config -f "$STORE/series/demo/series.conf" version.3.origin reconstructed &&
	sed -i "s/^Signed-off-by: Ann.*/&\nSigned-off-by: Mal Lory <mal@example.org>/" "$V3/0002-demo-add-other.c.patch" &&
	kseries check demo@v3 --stage provenance --json >json &&
	has_finding 0002-demo-add-other.c.patch 9 warning "cannot verify (v3 is a reconstructed record): Signed-off-by: Mal Lory"
'

test_expect_success PYTHON 'check --b4 reports provenance per patch' '
	rm -rf "$STORE" "$TRASH/cache" && cp -R "$FIXTURES/store" "$STORE" &&
	sed -i "s/^Link: .*/Reviewed-by: Nobody Real <nobody@example.org>\n&/" "$V3/0001-demo-add-b.patch" &&
	kseries check demo@v3 --stage provenance >/dev/null || true &&
	kseries check --b4 <"$V3/0001-demo-add-b.patch" >b4.json &&
	grep "kseries-provenance" b4.json &&
	grep "Nobody Real" b4.json
'

test_expect_success PYTHON 'KCIDB output carries the provenance test' '
	{ kseries check demo@v3 --stage provenance --kcidb kcidb.json >/dev/null || true; } &&
	python3 -c "
import json, sys
t = [t for t in json.load(open(\"kcidb.json\"))[\"tests\"] if t[\"path\"] == \"provenance\"]
sys.exit(len(t) != 1 or t[0][\"status\"] != \"FAIL\")"
'

test_done
