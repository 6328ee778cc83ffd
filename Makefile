# kseries - patch-series management and review pipeline for kernel work.
#
#   make                 build ./kseries
#   make DEVELOPER=1     warnings are errors
#   make SANITIZE=address,undefined check
#   make check           unit tests, end-to-end tests, Coccinelle cases (prove)
#   make check-kernel    the kernel stages (builds, KUnit, VM); minutes to hours
#   make bench           benchmarks, reported as ratios
#   make fuzz            short libFuzzer runs of every parser harness
#   make fuzz-replay     replay the committed fuzz inputs, fuzz briefly (CI)
#   make doc             the man pages, doc/*.1 from doc/*.1.scd (scdoc)
#   make install         binary, man pages, bash completion under
#                        $(DESTDIR)$(PREFIX) (PREFIX=/usr/local)
-include config.mak

CC ?= cc
PKG_CONFIG ?= pkg-config
PKGS = gmime-3.0 jansson libgit2 libcurl zlib
CFLAGS ?= -O2 -g
ALL_CFLAGS = $(CFLAGS) -std=gnu11 -D_GNU_SOURCE -MMD -MP \
	$(shell $(PKG_CONFIG) --cflags $(PKGS))
ALL_LDFLAGS = $(LDFLAGS)
LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS)) -lm

ifdef DEVELOPER
ALL_CFLAGS += -Wall -Wextra -Werror -Wvla -Wwrite-strings \
	-Wstrict-prototypes -Wmissing-prototypes -Wshadow \
	-Wno-unused-parameter -Wformat=2 -Wno-format-nonliteral
endif
ifdef SANITIZE
ALL_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
ALL_LDFLAGS += -fsanitize=$(SANITIZE)
endif

ifndef V
QUIET_CC = @echo '   ' CC $@;
QUIET_LINK = @echo '   ' LINK $@;
QUIET_GEN = @echo '   ' GEN $@;
endif

PROGRAM = kseries

# The version: in a git checkout, `git describe` of the tree (a tag vX.Y
# is X.Y; without a tag, VERSION-g<commit>; -dirty when changed); else
# (a tarball, git archive) the VERSION file.
KSERIES_VERSION := $(shell \
	if test -e .git && d=$$(git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null); then \
		echo "$$d" | sed 's/^v//'; \
	elif test -e .git && d=$$(git describe --always --dirty 2>/dev/null); then \
		echo "$$(cat VERSION)-g$$d"; \
	else \
		cat VERSION; \
	fi)

# The library: everything but main.
LIB_OBJS =
LIB_OBJS += tools/anchor.o
LIB_OBJS += tools/apply.o
LIB_OBJS += tools/b4.o
LIB_OBJS += tools/check.o
LIB_OBJS += tools/check-b4.o
LIB_OBJS += tools/check-cache.o
LIB_OBJS += tools/ci-gitlab.o
LIB_OBJS += tools/color.o
LIB_OBJS += tools/feedback.o
LIB_OBJS += tools/feedback-count.o
LIB_OBJS += tools/fetch.o
LIB_OBJS += tools/format.o
LIB_OBJS += tools/format-trailers.o
LIB_OBJS += tools/ident.o
LIB_OBJS += tools/import.o
LIB_OBJS += tools/lore.o
LIB_OBJS += tools/mail.o
LIB_OBJS += tools/parse-options.o
LIB_OBJS += tools/patch.o
LIB_OBJS += tools/posting.o
LIB_OBJS += tools/progress.o
LIB_OBJS += tools/rangediff.o
LIB_OBJS += tools/recipients.o
LIB_OBJS += tools/record.o
LIB_OBJS += tools/report-b4.o
LIB_OBJS += tools/report-json.o
LIB_OBJS += tools/report-html.o
LIB_OBJS += tools/report-kcidb.o
LIB_OBJS += tools/report-text.o
LIB_OBJS += tools/report-mail.o
LIB_OBJS += tools/review.o
LIB_OBJS += tools/run.o
LIB_OBJS += tools/scratch.o
LIB_OBJS += tools/series.o
LIB_OBJS += tools/stage-apply.o
LIB_OBJS += tools/stage-build.o
LIB_OBJS += tools/stage-checkpatch.o
LIB_OBJS += tools/stage-cocci.o
LIB_OBJS += tools/stage-feedback.o
LIB_OBJS += tools/stage-format.o
LIB_OBJS += tools/stage-kunit.o
LIB_OBJS += tools/stage-mail.o
LIB_OBJS += tools/stage-model.o
LIB_OBJS += tools/stage.o
LIB_OBJS += tools/stage-provenance.o
LIB_OBJS += tools/stage-rust.o
LIB_OBJS += tools/stage-script.o
LIB_OBJS += tools/stage-sparse.o
LIB_OBJS += tools/store.o
LIB_OBJS += tools/subject.o
LIB_OBJS += tools/svgplot.o
LIB_OBJS += tools/thread.o
LIB_OBJS += tools/trailer.o
LIB_OBJS += tools/util.o
LIB_OBJS += tools/version-status.o
LIB_OBJS += tools/work.o
LIB_OBJS += tools/workbench.o

BUILTIN_OBJS =
BUILTIN_OBJS += tools/cmd-b4-branch.o
BUILTIN_OBJS += tools/cmd-check.o
BUILTIN_OBJS += tools/cmd-ci.o
BUILTIN_OBJS += tools/cmd-diff.o
BUILTIN_OBJS += tools/cmd-feedback.o
BUILTIN_OBJS += tools/cmd-fetch.o
BUILTIN_OBJS += tools/cmd-format.o
BUILTIN_OBJS += tools/cmd-import.o
BUILTIN_OBJS += tools/cmd-list.o
BUILTIN_OBJS += tools/cmd-record.o
BUILTIN_OBJS += tools/cmd-report.o
BUILTIN_OBJS += tools/cmd-review.o
BUILTIN_OBJS += tools/cmd-send.o
BUILTIN_OBJS += tools/cmd-show.o
BUILTIN_OBJS += tools/cmd-status.o
BUILTIN_OBJS += tools/cmd-withdraw.o
BUILTIN_OBJS += tools/cmd-work.o

OBJS = tools/kseries.o $(BUILTIN_OBJS) $(LIB_OBJS)

UNIT_TESTS =
UNIT_TESTS += tests/unit/t-anchor
UNIT_TESTS += tests/unit/t-b4
UNIT_TESTS += tests/unit/t-check
UNIT_TESTS += tests/unit/t-feedback
UNIT_TESTS += tests/unit/t-format
UNIT_TESTS += tests/unit/t-format-trailers
UNIT_TESTS += tests/unit/t-ident
UNIT_TESTS += tests/unit/t-lore
UNIT_TESTS += tests/unit/t-mail
UNIT_TESTS += tests/unit/t-parse-options
UNIT_TESTS += tests/unit/t-patch
UNIT_TESTS += tests/unit/t-posting
UNIT_TESTS += tests/unit/t-progress
UNIT_TESTS += tests/unit/t-recipients
UNIT_TESTS += tests/unit/t-review
UNIT_TESTS += tests/unit/t-run
UNIT_TESTS += tests/unit/t-series
UNIT_TESTS += tests/unit/t-store
UNIT_TESTS += tests/unit/t-subject
UNIT_TESTS += tests/unit/t-svgplot
UNIT_TESTS += tests/unit/t-thread
UNIT_TESTS += tests/unit/t-trailer
UNIT_TESTS += tests/unit/t-util

all: $(PROGRAM)

# Objects built with other flags (DEVELOPER, SANITIZE, CFLAGS) are rebuilt:
# a sanitized run must not link plain objects. As git's GIT-CFLAGS.
BUILD_FLAGS = $(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS)
tools/.build-flags: FORCE
	@printf '%s\n' '$(subst ','\'',$(BUILD_FLAGS))' >$@+ && \
	if cmp -s $@+ $@; then rm -f $@+; else mv $@+ $@; fi

$(PROGRAM): $(OBJS) tools/.build-flags
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) -o $@ $(OBJS) $(ALL_LDFLAGS) $(LIBS)

%.o: %.c tools/.build-flags
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) -Itools -c -o $@ $<

# What check's cached results depend on of kseries itself: its sources,
# whatever the compiler flags (a sanitized build reuses a plain one's).
SOURCE_ID_INPUTS = $(sort $(wildcard tools/*.c) \
	$(filter-out tools/source-id.h tools/version.h,$(wildcard tools/*.h)))
tools/source-id.h: $(SOURCE_ID_INPUTS)
	@printf '#define KSERIES_SOURCE_ID "%s"\n' \
		"$$(cat $(SOURCE_ID_INPUTS) | sha256sum | cut -c1-64)" >$@+ && mv $@+ $@
tools/check-cache.o tools/version-status.o: tools/source-id.h

tools/version.h: FORCE
	@printf '#define KSERIES_VERSION "%s"\n' '$(subst ','\'',$(KSERIES_VERSION))' >$@+ && \
	if cmp -s $@+ $@; then rm -f $@+; else mv $@+ $@; fi
tools/kseries.o: tools/version.h

version:
	@echo '$(subst ','\'',$(KSERIES_VERSION))'

# Man pages: doc/kseries.1.scd and doc/kseries-COMMAND.1.scd, by scdoc.
SCDOC ?= scdoc
MAN_PAGES = $(patsubst %.scd,%,$(sort $(wildcard doc/*.1.scd)))

doc: $(MAN_PAGES)

doc/%.1: doc/%.1.scd
	$(QUIET_GEN)$(SCDOC) <$< >$@+ && mv $@+ $@

PREFIX ?= /usr/local
bindir = $(PREFIX)/bin
mandir = $(PREFIX)/share/man
bashcompdir = $(PREFIX)/share/bash-completion/completions
# the kernel stages' scripts and the Coccinelle rules, found by the binary
# at ../share/kseries beside its bin/ (tools/workbench.c)
datadir = $(PREFIX)/share/kseries
DATA_FILES = $(filter-out %.md,$(wildcard kernel/* kernel/prog/* cocci/*))
INSTALL ?= install

install: all doc
	$(INSTALL) -d -m 755 '$(DESTDIR)$(bindir)' '$(DESTDIR)$(mandir)/man1' \
		'$(DESTDIR)$(bashcompdir)'
	$(INSTALL) -m 755 $(PROGRAM) '$(DESTDIR)$(bindir)/$(PROGRAM)'
	$(INSTALL) -m 644 $(MAN_PAGES) '$(DESTDIR)$(mandir)/man1/'
	$(INSTALL) -m 644 completion/kseries.bash '$(DESTDIR)$(bashcompdir)/kseries'
	@set -e; for f in $(DATA_FILES); do \
		test -f "$$f" || continue; \
		mode=644; test -x "$$f" && mode=755; \
		$(INSTALL) -d -m 755 "$(DESTDIR)$(datadir)/$${f%/*}"; \
		$(INSTALL) -m $$mode "$$f" "$(DESTDIR)$(datadir)/$$f"; \
	done

tools/lib.a: $(LIB_OBJS)
	$(QUIET_LINK)$(AR) rcs $@ $(LIB_OBJS)

tests/unit/t-%: tests/unit/t-%.o tools/lib.a tools/.build-flags
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) -o $@ $< tools/lib.a \
		$(ALL_LDFLAGS) $(LIBS) -lcmocka

PROVE ?= prove
PROVE_OPTS ?=
SHELL_TESTS = $(sort $(wildcard tests/t[0-9]*.sh))

check: all $(UNIT_TESTS)
	@CMOCKA_MESSAGE_OUTPUT=TAP $(PROVE) $(PROVE_OPTS) -e '' $(UNIT_TESTS) :: && \
	$(PROVE) $(PROVE_OPTS) -e bash $(SHELL_TESTS)

# The README's test command: a warning-free, sanitized build and the suite,
# with the WORKBENCH tests: the check pipeline's kernel stages over every
# series (t3200) and on seeded defects (t3100), everything but the VM
# stages (make check-kernel). The base tree is provisioned first (seconds
# when it is there; about two minutes from Debian's mirror when not): the
# TREE tests need it, and skip with the reason when it cannot be had; the
# sid chroot is provisioned by the first build that needs it (~5 min).
test:
	-kernel/provision-base >/dev/null
	$(MAKE) clean
	KSERIES_WORKBENCH_TESTS=1 $(MAKE) DEVELOPER=1 SANITIZE=address,undefined check

check-kernel: all
	KSERIES_KERNEL_TESTS=1 $(PROVE) $(PROVE_OPTS) -e bash $(SHELL_TESTS)

# Every tests/bench/*.sh in turn, then the goals summary of that run
# (tests/bench/run-all; the run's logs, figures and summary are left in
# KSERIES_BENCH_RUN, default tests/bench/last-run).
bench: all
	@bash tests/bench/run-all

# libFuzzer harnesses (tests/fuzz/fuzz-*.c) over the library, built by
# clang with ASan; `make fuzz` runs each for FUZZ_SECONDS on a corpus
# seeded from the test fixtures; crashes land in tests/fuzz/crash-*.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_FLAGS = -g -O1 -std=gnu11 -D_GNU_SOURCE -fsanitize=fuzzer-no-link,address,undefined \
	$(shell $(PKG_CONFIG) --cflags $(PKGS)) -Itools
FUZZERS = $(patsubst %.c,%,$(wildcard tests/fuzz/fuzz-*.c))
FUZZ_OBJS = $(patsubst tools/%.o,tests/fuzz/obj/%.o,$(LIB_OBJS))

tests/fuzz/obj/%.o: tools/%.c
	@mkdir -p tests/fuzz/obj
	$(QUIET_CC)$(FUZZ_CC) $(FUZZ_FLAGS) -c -o $@ $<

tests/fuzz/fuzz-%: tests/fuzz/fuzz-%.c $(FUZZ_OBJS)
	$(QUIET_LINK)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< \
		$(FUZZ_OBJS) $(LIBS)

fuzz: $(FUZZERS)
	@set -e; for f in $(FUZZERS); do \
		n=$${f##*/}; c=tests/fuzz/corpus-$${n#fuzz-}; \
		mkdir -p $$c; \
		cp -n tests/t0*/*.mbox tests/t0*/*.patch $$c/ 2>/dev/null || :; \
		cp -n tests/t1*/*.mbox $$c/ 2>/dev/null || :; \
		echo "== $$n ($(FUZZ_SECONDS) s)"; \
		$$f -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
			-artifact_prefix=tests/fuzz/crash-$${n#fuzz-}- \
			-print_final_stats=1 $$c >tests/fuzz/$$n.log 2>&1 || \
			{ tail -n 40 tests/fuzz/$$n.log; exit 1; }; \
		tail -n 6 tests/fuzz/$$n.log; \
	done

# The CI part of fuzzing: every harness replays its committed regression
# inputs and seeds (tests/fuzz/regress-NAME/, plus the crash fixtures of
# tests/t0003 for the mail parsers) once, then fuzzes for
# FUZZ_REPLAY_SECONDS from them into a scratch corpus. Run by
# tests/t0005-fuzz-replay.sh under `make check`.
FUZZ_REPLAY_SECONDS ?= 20
fuzz-replay: $(FUZZERS)
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	for f in $(FUZZERS); do \
		n=$${f##*/}; n=$${n#fuzz-}; r=tests/fuzz/regress-$$n; \
		extra=; case $$n in mail|review) extra="$$(echo tests/t0003/crash-*.mbox)";; esac; \
		echo "== fuzz-$$n: replay $$(ls $$r | wc -l) inputs$${extra:+ and the crash fixtures}"; \
		$$f -runs=0 -rss_limit_mb=2048 -timeout=60 \
			-artifact_prefix=tests/fuzz/crash-$$n- $$r \
			>$$tmp/$$n.log 2>&1 || { tail -n 40 $$tmp/$$n.log; exit 1; }; \
		test -z "$$extra" || $$f -rss_limit_mb=2048 -timeout=60 \
			-artifact_prefix=tests/fuzz/crash-$$n- $$extra \
			>$$tmp/$$n.log 2>&1 || { tail -n 40 $$tmp/$$n.log; exit 1; }; \
		echo "== fuzz-$$n: $(FUZZ_REPLAY_SECONDS) s"; \
		mkdir -p $$tmp/c-$$n; \
		$$f -max_total_time=$(FUZZ_REPLAY_SECONDS) -rss_limit_mb=2048 \
			-timeout=60 -max_len=65536 -print_final_stats=1 \
			-artifact_prefix=tests/fuzz/crash-$$n- $$tmp/c-$$n $$r \
			>$$tmp/$$n.log 2>&1 || { tail -n 40 $$tmp/$$n.log; exit 1; }; \
		grep -E "^stat::(number_of_executed_units|peak_rss_mb)" $$tmp/$$n.log; \
	done

# The kernel's way: the code is formatted by hand in the kernel's style,
# and clang-format (.clang-format) formats the lines changed since
# FORMAT_BASE, not whole files.
FORMAT_BASE ?= HEAD
format:
	git clang-format --extensions c,h $(FORMAT_BASE) -- tools tests/unit tests/fuzz

clean:
	$(RM) $(PROGRAM) tools/*.o tools/*.d tools/lib.a tools/source-id.h tools/.build-flags tests/unit/*.o \
		tests/unit/*.d $(UNIT_TESTS) $(FUZZERS)
	$(RM) -r tests/fuzz/obj
	$(RM) tools/version.h $(MAN_PAGES)

.PHONY: all check check-kernel test bench fuzz fuzz-replay format clean doc \
	install version FORCE

-include $(OBJS:.o=.d) $(UNIT_TESTS:=.d)
.SECONDARY: $(FUZZ_OBJS)
