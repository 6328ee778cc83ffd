# tests/lib-loop.sh - a small base tree and a posted series for the
# tests of kseries work, record and the whole loop.
#
# loop_base DIR: a git repository with drivers/foo/foo.c, tagged
# v7.2.13 (the series' base), used as the workbench's base repository
# (KSERIES_TREE). loop_series BASE STORE NAME: two patches on it, as
# git format-patch --cover-letter --thread writes them, imported into
# STORE as a posted v1 (mbox in $TRASH/NAME-v1.mbox).

loop_base() {
	git init -q -b master "$1" &&
	mkdir -p "$1/drivers/foo" &&
	cat >"$1/drivers/foo/foo.c" <<-\EOC &&
	// SPDX-License-Identifier: GPL-2.0
	#include <linux/spinlock.h>

	struct foo {
		spinlock_t lock;
		int state;
		int frobs;
	};

	static int foo_frob(struct foo *f)
	{
		int ret;

		spin_lock(&f->lock);
		ret = frob(f);
		spin_unlock(&f->lock);
		return ret;
	}

	static void foo_done(struct foo *f)
	{
		f->state = FOO_DONE;
		wake_up(&f->wait);
	}
	EOC
	git -C "$1" add . &&
	git -C "$1" commit -q -m "Linux 7.2.13" &&
	git -C "$1" tag v7.2.13
}

loop_series() {
	local base=$1 store=$2 name=$3 w=$TRASH/$3-author
	git clone -q "$base" "$w" &&
	(
		cd "$w" &&
		export GIT_AUTHOR_NAME="Alice Author" GIT_AUTHOR_EMAIL=alice@example.org &&
		sed -i "s/ret = frob(f);/ret = __frob(f);/; /spin_lock(&f->lock);/d; /spin_unlock(&f->lock);/d" drivers/foo/foo.c &&
		GIT_AUTHOR_DATE="2026-06-01T10:00:01Z" git commit -q -a -m "foo: drop the frob lock" \
			-m "The lock only guards a counter that is never read." \
			-m "Signed-off-by: Alice Author <alice@example.org>" &&
		sed -i "s/f->state = FOO_DONE;/&\n\tf->frobs++;\n\tpr_info(\"frobs: %d\\\\n\", f->frobs);/" drivers/foo/foo.c &&
		GIT_AUTHOR_DATE="2026-06-01T10:00:02Z" git commit -q -a -m "foo: count the frobs" \
			-m "Keep a count of the frobs for debugfs." \
			-m "Signed-off-by: Alice Author <alice@example.org>" &&
		git format-patch -q --cover-letter --thread --base=v7.2.13 -o out v7.2.13 &&
		sed -i -e "s/\*\*\* SUBJECT HERE \*\*\*/foo: make the frobnicator faster/" \
		       -e "s/\*\*\* BLURB HERE \*\*\*/The frobnicator takes a lock it does not need./" \
		       -e "s/^base-commit: .*/&\nchange-id: 20260601-foo-frob-0123456789ab/" out/0000-*.patch &&
		cat out/*.patch >"$TRASH/$name-v1.mbox"
	) &&
	(cd "$store" && "$KSERIES" import "$name" "$TRASH/$name-v1.mbox" >/dev/null)
}
