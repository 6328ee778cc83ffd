# Sourced by the tests of binder-alloc-spinlock's spin model (t8100,
# t8103), after lib.sh: the SPIN prereq and a trace helper.

if command -v spin >/dev/null && command -v gcc >/dev/null; then
	test_set_prereq SPIN
else
	SKIP_REASON='spin or gcc not installed'
fi

# line number of the first line of FILE matching the extended regex RE
first_line() {
	grep -n -E "$2" "$1" | head -n 1 | cut -d: -f1
}
