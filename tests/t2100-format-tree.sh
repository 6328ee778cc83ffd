#!/bin/bash
# kseries format on the real series against the Linux 7.2.13 base tree:
# the latest version of each series round-trips through git am, and a b4
# prep branch of it, sent offline with `b4 send -o` under unshare -n,
# writes the same subjects, recipients, trailers, base-commit, change-id.
test_description='kseries format and b4-branch on the base tree'
. "$(dirname "$0")/lib.sh"

export KSERIES_NO_SEND=1 KSERIES_DIR=$SRC_DIR KSERIES_CACHE=$REAL_CACHE
TREE=$REAL_CACHE/linux
unset KSERIES_TREE

if git -C "$TREE" rev-parse -q --verify 'v7.2.13^{commit}' >/dev/null 2>&1; then
	test_set_prereq TREE
else
	SKIP_REASON="no base tree with tag v7.2.13 at $TREE"
fi
if command -v b4 >/dev/null && unshare -n true 2>/dev/null &&
   /usr/bin/python3 -c 'import git_filter_repo' 2>/dev/null; then
	test_set_prereq B4
fi

# The latest version of each series that has patches and can be mailed
# (a reconstructed version is a record: format refuses it).
latest_versions() {
	local d v
	for d in "$SRC_DIR"/series/*/; do
		v=$(ls -d "$d"v[0-9]* 2>/dev/null | sed 's/.*\/v//' | sort -n | tail -n 1)
		[ -n "$v" ] || continue
		ls "$d/v$v"/0[0-9][0-9][1-9]-*.patch >/dev/null 2>&1 || continue
		[ "$(git config -f "$d/series.conf" "version.$v.origin")" = reconstructed ] &&
			continue
		echo "$(basename "$d")@v$v"
	done
}

# The sender: the scratch HOME's own identity, never the base tree's.
SENDER="Sam Sender <sam@example.org>"

# A commit log for comparison: the sender's sign-off (added at format
# time), Assisted-by (added at format time from series.conf, checked
# apart) and any placeholder one left out, the placeholder author read as
# the sender, blank lines dropped.
log_cmp() {
	git -C "$1" log --reverse --format="%an <%ae> %ad%n%B" v7.2.13..HEAD |
		sed -e "s/^Kseries Developers <dev@kseries.invalid> /$SENDER /" \
		    -e "/^Signed-off-by: .*@[a-z.]*invalid>$/d" \
		    -e "/^Signed-off-by: $SENDER$/d" -e "/^Assisted-by: /d" -e "/^$/d"
}

# Unfolded values of header $2 of mail $1.
hdr() {
	sed -n '1,/^$/p' "$1" | awk -v h="$2" '
		/^[ \t]/ { if (keep) val = val " " substr($0, 2); next }
		{ if (keep) print val; keep = tolower(substr($0, 1, length(h) + 1)) == tolower(h) ":";
		  val = substr($0, length(h) + 3) }
		END { if (keep) print val }'
}

addrs() {
	{ hdr "$1" To; hdr "$1" Cc; } | grep -o '[^<>,"[:space:]]*@[^<>,"[:space:]]*' |
		tr 'A-Z' 'a-z' | sort -u
}

# What a patch mail says, for comparison: subject tag words (in their
# order: format writes b4's) and title, the trailers of the message,
# base-commit and change-id.
digest() {
	local f=$1 tmp=$TRASH/digest.$$
	git mailinfo -k "$tmp.msg" "$tmp.patch" <"$f" >"$tmp.info"
	sed -n 's/^Subject: \[\([^]]*\)\] \(.*\)/\1\n\2/p' "$tmp.info" >"$tmp.subj"
	# b4 sends one patch without a cover: "1/1" is git's only
	head -n 1 "$tmp.subj" | tr ' ' '\n' | grep -vx '1/1' | tr '\n' ' '
	echo
	tail -n 1 "$tmp.subj"
	git interpret-trailers --parse <"$tmp.msg"
	rm -f "$tmp".*
}

test_expect_success TREE 'setup: a shared clone of the base tree' '
	git clone -q --shared --no-checkout "$TREE" "$TRASH/k" &&
	git -C "$TRASH/k" config user.name "Kseries Developers" &&
	git -C "$TRASH/k" config user.email dev@kseries.invalid &&
	test_sender &&
	latest_versions >"$TRASH/versions" &&
	test -s "$TRASH/versions" &&
	# only the paths the series touch are checked out
	cat "$SRC_DIR"/series/*/v*/0*.patch | sed -n "s|^diff --git a/\(.*\) b/.*|/\1|p" |
		sort -u >"$TRASH/paths" &&
	git -C "$TRASH/k" sparse-checkout set --no-cone --stdin <"$TRASH/paths" &&
	git -C "$TRASH/k" checkout -q --detach v7.2.13
'

n=0
for spec in $(test_have_prereq TREE && latest_versions); do
	n=$((n + 1))
	name=${spec%@*} v=${spec#*@v}
	export spec name v n

	test_expect_success TREE "$spec formats and round-trips through git am" '
		kseries format "$spec" --no-trailers -o "out$n" >written &&
		test -s written &&
		if [ "$(ls "$SRC_DIR/series/$name/v$v"/0*.patch | grep -vc 0000-cover)" -gt 1 ]; then
			test -f "out$n/0000-cover-letter.patch"
		fi &&
		k="$TRASH/k" &&
		ab=$(git config -f "$SRC_DIR/series/$name/series.conf" "version.$v.assisted-by") ;
		git -C "$k" checkout -q --detach v7.2.13 &&
		# a stored patch without From: is the sender'"'"'s own
		rm -rf "stored$n" && mkdir "stored$n" &&
		for f in $(ls "$SRC_DIR/series/$name/v$v"/0*.patch | grep -v 0000-cover); do
			if sed -n "1,/^\$/p" "$f" | grep -q "^From: "; then
				cp "$f" "stored$n/" || exit 1
			else
				sed "1a\\
From: $SENDER" "$f" >"stored$n/${f##*/}" || exit 1
			fi
		done &&
		git -C "$k" am -q "$TRASH/stored$n"/*.patch &&
		log_cmp "$k" >msg.want &&
		git -C "$k" log -p --reverse v7.2.13..HEAD | git patch-id --stable | cut -d" " -f1 >pid.want &&
		git -C "$k" checkout -q --detach v7.2.13 &&
		git -C "$k" am -q $(ls "$TRASH/out$n"/*.patch | grep -v 0000-cover) &&
		log_cmp "$k" >msg.got &&
		for c in $(git -C "$k" rev-list v7.2.13..HEAD); do
			git -C "$k" log -1 --format=%B $c | git interpret-trailers --parse |
				tail -n 1 >last &&
			echo "Signed-off-by: $SENDER" >want.last &&
			test_cmp want.last last || exit 1
			if [ -n "$ab" ]; then
				git -C "$k" log -1 --format=%B $c | git interpret-trailers --parse |
					grep -Fx "Assisted-by: $ab" || exit 1
			fi
		done &&
		# the sender everywhere it belongs (what the stored text says
		# is the provenance stage'"'"'s to judge)
		! grep -i "^\(From\|Message-Id\|In-Reply-To\|References\|Signed-off-by\):.*\(localhost\|\.invalid\)" \
			"$TRASH/out$n"/*.patch &&
		for f in "$TRASH/out$n"/*.patch; do
			grep "^Message-Id: <.*@example.org>$" "$f" || exit 1
		done &&
		git -C "$k" log -p --reverse v7.2.13..HEAD | git patch-id --stable | cut -d" " -f1 >pid.got &&
		test_cmp msg.want msg.got &&
		test_cmp pid.want pid.got &&
		git -C "$k" checkout -q --detach v7.2.13
	'

	test_expect_success TREE "$spec: base-commit, change-id, recipients, prefix" '
		kseries format "$spec" -o "full$n" >written &&
		first=$(head -n 1 written) &&
		grep "^base-commit: 03cb39b3d0021994d97c4f11eb6a4a7d29c86047$" "$first" &&
		cid=$(git config -f "$SRC_DIR/series/$name/series.conf" series.change-id) &&
		grep "^change-id: $cid$" "$first" &&
		addrs "$first" >to &&
		test -s to &&
		grep "linux-kernel@vger.kernel.org" to
	'

	test_expect_success TREE,B4 "$spec: b4 prep branch, b4 send -o offline agrees with ours" '
		kseries format "$spec" -o "ours$n" >written &&
		kseries b4-branch "$spec" -w "$TRASH/k" --force >branch &&
		grep "	b4/$name	v$v	" branch &&
		addrs "$(head -n 1 written)" >ours.addrs &&
		set -- $(cat ours.addrs) &&
		(cd "$TRASH/k" &&
		 GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=sendemail.smtpserver \
		 GIT_CONFIG_VALUE_0=/bin/false \
		 unshare -n b4 send --no-sign --no-trailer-to-cc --not-me-too \
			-o "$TRASH/b4$n" --to "$@" </dev/null) >b4.log 2>&1 &&
		ls "$TRASH/b4$n"/*.eml >b4.files &&
		grep -v 0000-cover-letter written >ours.patches &&
		if [ "$(wc -l <b4.files)" -gt "$(wc -l <ours.patches)" ]; then
			addrs "$(head -n 1 b4.files)" >b4.addrs &&
			sed -i 1d b4.files
		else
			addrs "$(head -n 1 b4.files)" >b4.addrs
		fi &&
		test_cmp ours.addrs b4.addrs &&
		test_line_count = "$(wc -l <ours.patches)" b4.files &&
		paste -d" " ours.patches b4.files | while read -r o b; do
			digest "$o" >d.ours && digest "$b" >d.b4 &&
			test_cmp d.ours d.b4 || exit 1
		done &&
		grep -h "^\(base-commit\|change-id\): " "ours$n"/*.patch >c.ours &&
		grep -h "^\(base-commit\|change-id\): " "$TRASH/b4$n"/*.eml >c.b4 &&
		test_cmp c.ours c.b4 &&
		test_line_count = 2 c.ours
	'
done

test_expect_success TREE,B4 'send --b4 --dry-run: b4 send from the prep branch, offline' '
	spec=$(grep "^binder-defer-complete@" "$TRASH/versions" | head -n 1) &&
	test -n "$spec" &&
	GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=sendemail.smtpserver \
	GIT_CONFIG_VALUE_0=/bin/false \
	unshare -n "$KSERIES" send "$spec" --b4 -w "$TRASH/k" --dry-run --no-sign \
		</dev/null >out 2>&1 &&
	# b4 --dry-run prints each mail behind "    | "
	grep "| Subject: \[PATCH v3\] rust_binder: add TF_DEFER_COMPLETE" out &&
	grep "| change-id: 20260715-defer-complete-f1dea9af13a8$" out &&
	grep "^DRYRUN: Would have sent 1 messages$" out
'

test_expect_success TREE 'no temporary branch is left in the base tree' '
	git -C "$TREE" for-each-ref refs/heads/kseries-format/ >refs &&
	test_line_count = 0 refs
'

test_done
