#!/usr/bin/env bash
test_description='check --kcidb: valid KCIDB v5.3 that carries what KernelCI needs'
. "$(dirname "$0")/lib.sh"

SKIP_REASON=${SKIP_REASON_TREE:-}
export KSERIES_CACHE=$TRASH/cache
if python3 -c "import jsonschema" 2>/dev/null; then
	test_set_prereq JSONSCHEMA
else
	SKIP_REASON="no python3-jsonschema"
fi
validate() { python3 "$FIXTURES/kcidb-validate.py" "$FIXTURES/kcidb-v5.3.schema.json" "$@"; }

# the KCIDB tests' patch mails (test_binder_patch)
KCIDB=(-b "A change to binder_alloc.c for the KCIDB tests.")

# conf NAME PREFIX [MSGID]: a series.conf, the version posted as MSGID
conf() {
	mkdir -p "store/series/$1/v1" &&
	printf "[series]\n\ttitle = a demo\n\tbase = v7.2.13\n\tprefix = %s\n" "$2" \
		>"store/series/$1/series.conf" &&
	if [ -n "${3:-}" ]; then
		printf "[version \"1\"]\n\tmessage-id = <%s>\n\torigin = posted\n" "$3" \
			>>"store/series/$1/series.conf"
	fi
}

COMMENT="s|^static struct page \*binder_page_lookup|/* Looks up the page. */\n&|"

test_expect_success TREE,JSONSCHEMA 'the schema rejects what it must' '
	printf "%s\n" "{\"version\": {\"major\": 5, \"minor\": 3}, \"checkouts\": [{\"id\": \"kseries:x\", \"origin\": \"kseries\", \"git_commit_hash\": null, \"patchset_hash\": \"\"}], \"builds\": [], \"tests\": [{\"id\": \"kseries:t\", \"origin\": \"kseries\", \"build_id\": \"kseries:nobuild\", \"path\": \"x\", \"status\": \"WARN\", \"log_url\": \"/tmp/x.log\"}]}" >bad.json &&
	test_must_fail validate bad.json >out &&
	grep "git_commit_hash.*None is not of type" out &&
	grep "WARN. is not one of" out &&
	grep "log_url.*does not match" out &&
	grep "build kseries:nobuild not in the file" out
'

test_expect_success TREE,JSONSCHEMA 'a posted version: the base, the patchset, its message, valid' '
	conf posted PATCH posted-1@example.invalid &&
	test_binder_patch "${KCIDB[@]}" -m posted-1@example.invalid \
		store/series/posted/v1/0001-binder-comment.patch \
		"[PATCH] binder: explain the lookup" "$COMMENT" &&
	cd store &&
	kseries check posted --stage format --stage checkpatch --kcidb ../k.json >/dev/null &&
	cd .. && validate k.json &&
	base=$(git -C "$KSERIES_TREE" rev-parse v7.2.13^{commit}) &&
	hash=$(sha256sum store/series/posted/v1/0001-binder-comment.patch | cut -c-64 | sha256sum | cut -c-64) &&
	python3 - "$base" "$hash" <<-\EOF
	import json, sys
	base, phash = sys.argv[1:]
	k = json.load(open("k.json"))
	[c] = k["checkouts"]
	assert c["id"] == "kseries:posted-v1", c
	assert c["git_commit_hash"] == base, (c, base)
	assert c["patchset_hash"] == phash, (c, phash)
	assert c["patchset_files"] == [{"name": "0001-binder-comment.patch",
		"url": "https://lore.kernel.org/all/posted-1@example.invalid/raw"}], c
	assert c["message_id"] == "posted-1@example.invalid", c
	assert c["valid"] is True, c
	[b] = k["builds"]
	assert b["checkout_id"] == c["id"] and "status" not in b, b
	t = {x["path"]: x for x in k["tests"]}
	assert sorted(t) == ["checkpatch", "format"], t
	assert all(x["build_id"] == b["id"] and x["status"] == "PASS" for x in t.values()), t
	EOF
'

test_expect_success TREE,JSONSCHEMA 'a warning is not a PASS; a finding is in the excerpt' '
	conf warned "RFC PATCH" &&
	test_binder_patch "${KCIDB[@]}" store/series/warned/v1/0001-x.patch "[PATCH] binder: x" "$COMMENT" &&
	cd store &&
	kseries check warned --stage format --kcidb ../w.json >out &&
	grep "warned  *v1  format  *warn" out &&
	cd .. && validate w.json &&
	python3 - <<-\EOF
	import json
	k = json.load(open("w.json"))
	[c] = k["checkouts"]
	assert "patchset_files" not in c and "message_id" not in c, c
	[t] = k["tests"]
	assert t["status"] == "FAIL" and t["misc"]["kseries_status"] == "warn", t
	assert "prefix differs" in t["log_excerpt"], t
	EOF
'

test_expect_success TREE,JSONSCHEMA 'a version that does not apply: valid false, nothing built or tested' '
	conf noapply PATCH &&
	test_binder_patch "${KCIDB[@]}" store/series/noapply/v1/0001-x.patch "[PATCH] binder: x" "$COMMENT" &&
	sed -i "s/^ static struct page \*binder_page_lookup/ static struct page *no_such_context_line/" \
		store/series/noapply/v1/0001-x.patch &&
	cd store &&
	test_expect_code 1 kseries check noapply --stage checkpatch --kcidb ../n.json >/dev/null &&
	cd .. && validate n.json &&
	base=$(git -C "$KSERIES_TREE" rev-parse v7.2.13^{commit}) &&
	python3 - "$base" <<-\EOF
	import json, sys
	k = json.load(open("n.json"))
	[c] = k["checkouts"]
	assert c["valid"] is False and c["git_commit_hash"] == sys.argv[1], c
	assert c["log_excerpt"], c
	assert k["builds"] == [] and k["tests"] == [], k
	EOF
'

test_expect_success TREE,JSONSCHEMA 'a stage whose tool is missing is a MISS; several versions in one file' '
	mkdir bin && for p in git sh env sed cat; do ln -s "$(command -v $p)" bin/$p || exit 1; done &&
	cd store &&
	PATH=$TRASH/bin "$KSERIES" check posted warned --stage checkpatch --no-cache --kcidb ../m.json >out &&
	grep "checkpatch skip .*perl" out &&
	cd .. && validate m.json &&
	python3 - <<-\EOF
	import json
	k = json.load(open("m.json"))
	assert [c["id"] for c in k["checkouts"]] == ["kseries:posted-v1", "kseries:warned-v1"], k
	assert [t["status"] for t in k["tests"]] == ["MISS", "MISS"], k["tests"]
	EOF
'

test_expect_success TREE,JSONSCHEMA 'a version whose patches are not here is left out' '
	mkdir -p store2/series && cd store2 &&
	kseries import handles "$SRC_DIR/tests/t0001/seed-004-binder-large-handles-v1.mbox" >/dev/null &&
	kseries check handles --kcidb ../h.json >out &&
	grep "handles  *v1  apply  *skip" out &&
	cd .. && validate h.json &&
	python3 -c "
import json
k = json.load(open(\"h.json\"))
assert k[\"checkouts\"] == [] and k[\"tests\"] == [], k
"
'

test_done
