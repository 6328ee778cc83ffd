#!/usr/bin/env bash
test_description='make doc and make install (PREFIX, DESTDIR): the binary, man pages, completion'
. "$(dirname "$0")/lib.sh"

if command -v scdoc >/dev/null 2>&1; then
	test_set_prereq SCDOC
else
	SKIP_REASON="scdoc is not installed (ci/setup installs it)"
fi

# A copy of what make doc and make install read, with the binary under
# test, so that the tree and its build stay as they are: make -o kseries
# takes the binary as it is.
test_expect_success SCDOC 'setup: a copy of the Makefile, doc/, completion/ and the binary' '
	mkdir src &&
	cp -R "$SRC_DIR/Makefile" "$SRC_DIR/VERSION" "$SRC_DIR/doc" \
		"$SRC_DIR/completion" "$SRC_DIR/kernel" "$SRC_DIR/cocci" src/ &&
	rm -f src/doc/*.1 &&
	cp "$KSERIES" src/kseries
'

test_expect_success SCDOC 'make doc: a man page for kseries and for each command' '
	make -s -C src doc &&
	ls src/doc/*.1 | sed "s|.*/||" >pages &&
	kseries -h | sed -n "/^commands:/,\$ s/^  \([a-z0-9-]*\) .*/kseries-\1.1/p" >want &&
	echo kseries.1 >>want &&
	sort want >want.sorted &&
	test_cmp want.sorted pages &&
	grep -q "^\.TH \"kseries-check\" \"1\"" src/doc/kseries-check.1 &&
	grep -q "list-stages" src/doc/kseries-check.1
'

test_expect_success SCDOC 'every option a command lists in -h is in its man page' '
	for cmd in $(kseries -h | sed -n "/^commands:/,\$ s/^  \([a-z0-9-]*\) .*/\1/p"); do
		kseries "$cmd" -h |
		sed -n "s/^ \{4\}\(-[a-zA-Z], \)\{0,1\}--\(\[no-\]\)\{0,1\}\([a-z0-9-]*\).*/\3/p" >opts &&
		for o in $(cat opts); do
			grep -q -- "--$o\|\*--\*\[\*no-\*\]\*$o\*" "src/doc/kseries-$cmd.1.scd" ||
			{ echo "kseries-$cmd.1.scd lacks --$o"; return 1; }
		done || return 1
	done
'

test_expect_success SCDOC 'make install PREFIX=/usr DESTDIR=...: files where they belong' '
	make -s -C src -o kseries install PREFIX=/usr DESTDIR="$TRASH/dest" &&
	(cd dest && find . -type f | sort) >files &&
	{
		echo ./usr/bin/kseries
		echo ./usr/share/bash-completion/completions/kseries
		sed "s|^|./usr/share/man/man1/|" pages
		(cd src && find kernel cocci -path cocci/tests -prune -o \
			-type f ! -name "*.md" -print) | sed "s|^|./usr/share/kseries/|"
	} | sort >expect &&
	test_cmp expect files &&
	test -x dest/usr/bin/kseries &&
	cmp src/kseries dest/usr/bin/kseries &&
	cmp src/completion/kseries.bash dest/usr/share/bash-completion/completions/kseries &&
	test "$(stat -c %a dest/usr/share/man/man1/kseries.1)" = 644 &&
	dest/usr/bin/kseries --version | grep "^kseries "
'

test_expect_success SCDOC 'installed scripts keep their modes' '
	test -x dest/usr/share/kseries/kernel/kbuild &&
	test -x dest/usr/share/kseries/cocci/run-sleep-check &&
	test "$(stat -c %a dest/usr/share/kseries/kernel/lib.sh)" = 644
'

if command -v "${SPATCH:-spatch}" >/dev/null 2>&1; then
	test_set_prereq SPATCH
fi

# The installed binary run in a store that carries no cocci/ of its own
# finds the rules where make install put them.
test_expect_success SCDOC,SPATCH 'an installed kseries finds its Coccinelle rules' '
	test_synthetic_env &&
	export KSERIES_DIR="$TRASH/bare" &&
	SOB="Signed-off-by: A U Thor <author@example.org>" &&
	git init -q -b master "$BASE" &&
	test_commit_file "$BASE" drivers/x/x.c "int x;" "Linux 7.2.13" &&
	git -C "$BASE" tag v7.2.13 &&
	printf "int x;\nint y;\n" >new.c &&
	printf "int x;\n" >old.c &&
	test_series s 1 bare &&
	git config -f bare/series/s/series.conf version.1.origin ours &&
	test_patch_mail bare/series/s/v1/0001-y.patch "[PATCH] x: add y" \
		drivers/x/x.c old.c new.c &&
	(cd bare && "$TRASH/dest/usr/bin/kseries" check s --stage apply \
		--stage cocci >../out 2>&1) &&
	grep "s  *v1  cocci  *pass" out
'

test_expect_success SCDOC 'the default PREFIX is /usr/local' '
	make -s -C src -o kseries install DESTDIR="$TRASH/dest2" &&
	test -x dest2/usr/local/bin/kseries &&
	test -f dest2/usr/local/share/man/man1/kseries-send.1 &&
	test -f dest2/usr/local/share/bash-completion/completions/kseries
'

test_expect_success SCDOC 'the installed man page reads' '
	if command -v man >/dev/null 2>&1; then
		MANWIDTH=80 man -l dest/usr/share/man/man1/kseries-format.1 >page 2>/dev/null &&
		grep -q "output-dir" page
	fi
'

test_done
