# shellcheck shell=bash disable=SC2034
# kernel/lib.sh - helpers shared by the kernel/ workbench scripts.
#
# Sourced, never run. Sets KSERIES_CACHE (default ~/.cache/kseries) and
# defines: ks_die, ks_say, ks_mirror, ks_apt, ks_sid_apt_setup, the
# ccache and distcc helpers and ks_cross, ks_cross_gcc (cross builds).
#
# Environment read:
#   KSERIES_CACHE         the cache directory (default ~/.cache/kseries)
#   KSERIES_MIRROR        Debian mirror URI; when unset, read from the system's
#                         apt sources at run time (never written into the tree)
#   KSERIES_APT_SOURCES   the deb822 .sources file to read the mirror from
#                         (default /etc/apt/sources.list.d/debian.sources)

KSERIES_CACHE=${KSERIES_CACHE:-${HOME:-/root}/.cache/kseries}
export KSERIES_CACHE
KS_PROG=$(basename "$0")
KS_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
# The unprivileged user that runs kernel builds (inside the chroot and, via
# setpriv, on the host). Fixed ids so build directories keep one owner.
KS_KBUILD_UID=7213
KS_KBUILD_GID=7213

ks_die() {
	printf '%s: error: %s\n' "$KS_PROG" "$*" >&2
	exit 1
}

ks_say() {
	printf '%s: %s\n' "$KS_PROG" "$*" >&2
}

# ks_mirror: print the Debian mirror URI the system's apt uses.
# Reads a deb822 .sources file (first stanza whose suites are not -security),
# falling back to the one-line /etc/apt/sources.list format.
ks_mirror() {
	local src=${KSERIES_APT_SOURCES:-/etc/apt/sources.list.d/debian.sources}
	local uri=''
	if [ -n "${KSERIES_MIRROR:-}" ]; then
		printf '%s\n' "$KSERIES_MIRROR"
		return 0
	fi
	if [ -r "$src" ]; then
		uri=$(awk '
			/^[[:space:]]*$/ { if (u != "" && s !~ /security/) { print u; exit }
			                   u = ""; s = ""; next }
			/^URIs:/   { u = $2 }
			/^Suites:/ { s = $0 }
			END { if (u != "" && s !~ /security/) print u }
		' "$src" | head -n 1)
	fi
	if [ -z "$uri" ] && [ -z "${KSERIES_APT_SOURCES:-}" ] &&
	   [ -r /etc/apt/sources.list ]; then
		uri=$(awk '$1 == "deb" && $0 !~ /security/ {
			for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' \
			/etc/apt/sources.list | head -n 1)
	fi
	[ -n "$uri" ] || ks_die "cannot find a Debian mirror in '$src'"
	printf '%s\n' "${uri%/}"
}

# ks_apt ARGS...: run apt-get/apt-cache style commands against the private
# sid configuration under $KSERIES_CACHE/apt. The first argument is the
# program (apt-get, apt-cache).
ks_apt() {
	local prog=$1 d=$KSERIES_CACHE/apt
	shift
	"$prog" -q \
		-o Dir::Etc::SourceList="$d/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::Etc::Preferences="$d/preferences" \
		-o Dir::Etc::PreferencesParts=/dev/null \
		-o Dir::State::Lists="$d/lists" \
		-o Dir::State::status="$d/status" \
		-o Dir::Cache="$d/cache" \
		-o Acquire::Check-Valid-Until=false \
		-o APT::Sandbox::User=root \
		"$@"
}

# ks_sid_apt_setup: write the private apt configuration and update its lists.
ks_sid_apt_setup() {
	local d=$KSERIES_CACHE/apt mirror
	mirror=$(ks_mirror)
	[ -r "$KS_KEYRING" ] || ks_die "missing $KS_KEYRING (apt-get install debian-archive-keyring)"
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	: >"$d/preferences"
	[ -e "$d/status" ] || : >"$d/status"
	printf 'deb [signed-by=%s] %s sid main\n' "$KS_KEYRING" "$mirror" >"$d/sources.list.tmp"
	mv "$d/sources.list.tmp" "$d/sources.list"
	ks_apt apt-get update >"$d/update.log" 2>&1 ||
		{ cat "$d/update.log" >&2; ks_die "apt-get update of the private sid configuration failed"; }
}

# KS_SID_LEVEL: what a provisioned sid chroot holds, as a number that
# provision-toolchain writes to $KSERIES_CACHE/sid/.kseries-level (a
# chroot without the file is level 1): 1 the toolchain, 2 also ccache.
# A chroot below it is brought up to it in place (no rebuild) on its
# next use.
KS_SID_LEVEL=2

# ks_sid_level ROOT: print the level of the chroot at ROOT (1 without the
# file); status 1 and one error line when the file holds no number.
ks_sid_level() {
	local level=1
	[ ! -f "$1/.kseries-level" ] || read -r level <"$1/.kseries-level" ||
		[ -n "$level" ] || level=
	case $level in
	[1-9]|[1-9][0-9]) printf '%s\n' "$level" ;;
	*) ks_say "error: $1/.kseries-level holds no level: delete it to provision the chroot again"
	   return 1 ;;
	esac
}

# ks_sid_current: status 0 when $KSERIES_CACHE/sid is provisioned and at
# KS_SID_LEVEL or above.
ks_sid_current() {
	local level
	[ -s "$KSERIES_CACHE/sid/.kseries-versions" ] || return 1
	level=$(ks_sid_level "$KSERIES_CACHE/sid" 2>/dev/null) || return 1
	[ "$level" -ge "$KS_SID_LEVEL" ]
}

# ks_distcc_hosts VALUE: DISTCC_HOSTS (space-separated) for a KSERIES_DISTCC
# VALUE, "HOST[:PORT][/N],...": HOST a hostname or an IPv4 address, PORT
# 1-65535, N (jobs on that host) 1-999. Anything else fails with one error
# line: the value reaches distcc, never a shell, but a typo should not
# become a host name.
ks_distcc_hosts() {
	local h name port list hosts=()
	local re='^([A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?)*)(:([0-9]{1,5}))?(/([1-9][0-9]{0,2}))?$'
	[[ $1 =~ ^[-A-Za-z0-9.,:/]+$ ]] && [ "${1%,}" = "$1" ] && [ "${1#,}" = "$1" ] ||
		{ ks_say "error: bad KSERIES_DISTCC '${1//[^-A-Za-z0-9.,:\/]/?}': want HOST[:PORT][/N],..."; return 1; }
	IFS=, read -r -a list <<<"$1"
	for h in "${list[@]}"; do
		if ! [[ $h =~ $re ]]; then
			ks_say "error: bad KSERIES_DISTCC host '$h': want HOST[:PORT][/N] (a hostname or IPv4 address)"
			return 1
		fi
		name=${BASH_REMATCH[1]} port=${BASH_REMATCH[6]}
		if [ -n "$port" ] && { [ "$((10#$port))" -lt 1 ] || [ "$((10#$port))" -gt 65535 ]; }; then
			ks_say "error: bad KSERIES_DISTCC port in '$h': want 1-65535"
			return 1
		fi
		[ ${#name} -le 253 ] ||
			{ ks_say "error: bad KSERIES_DISTCC host '$h': name too long"; return 1; }
		hosts+=("$h")
	done
	printf '%s\n' "${hosts[*]}"
}

# KS_CCACHE_BIN: Debian's masquerade directory, compiler-named links to
# ccache (package ccache). Fixed: never taken from the environment.
KS_CCACHE_BIN=/usr/lib/ccache

# ks_ccache_on [sid]: whether kernel builds use ccache, from KSERIES_CCACHE:
# 1 on (status 1 with one error line when ccache is not installed), 0
# off, unset (or empty) on when ccache is installed (else off, one note); anything
# else status 1, one error line. Sets KS_CCACHE to 1 or 0. With "sid" the
# build runs in the sid chroot: its ccache is provision-toolchain's (level
# KS_SID_LEVEL, which chroot-run brings the chroot to before it runs
# anything), so the host's is not looked for.
ks_ccache_on() {
	KS_CCACHE=0
	case ${KSERIES_CCACHE:-auto} in
	0) return 0 ;;
	1|auto) ;;
	*) ks_say "error: bad KSERIES_CCACHE '${KSERIES_CCACHE//[^-A-Za-z0-9.]/?}': want 1 (on) or 0 (off)"
	   return 1 ;;
	esac
	if [ "${1:-}" != sid ] &&
	   { [ ! -x "$KS_CCACHE_BIN/gcc" ] || [ ! -L "$KS_CCACHE_BIN/gcc" ]; }; then
		if [ -n "${KSERIES_CCACHE:-}" ]; then
			ks_say "error: KSERIES_CCACHE=1 but no $KS_CCACHE_BIN/gcc (Debian package ccache)"
			return 1
		fi
		ks_say "no $KS_CCACHE_BIN/gcc (Debian package ccache): building without ccache"
		return 0
	fi
	KS_CCACHE=1
}

# ks_ccache_size: the cache's size limit, KSERIES_CCACHE_SIZE (default
# 2G): 1-99999 followed by M or G, else status 1 and one error line.
ks_ccache_size() {
	local v=${KSERIES_CCACHE_SIZE:-2G}
	[[ $v =~ ^[1-9][0-9]{0,4}[MG]$ ]] ||
		{ ks_say "error: bad KSERIES_CCACHE_SIZE '${v//[^-A-Za-z0-9.]/?}': want N followed by M or G (e.g. 2G)"; return 1; }
	printf '%s\n' "$v"
}

# ks_ccache_dir [sid]: the ccache directory every build directory shares,
# $KSERIES_CACHE/ccache by its canonical path (the sandbox binds it
# there); with "sid", $KSERIES_CACHE/ccache-sid, the one of the builds in
# the sid chroot (another ccache version, whose cache format and cleanup
# are its own; no object of its compilers could hit the host's anyway).
# Refused with one error line (status 1): a symlink there,
# something that is not a directory, a cache path with a control
# character or a ':' (PATH-like lists would split it). Writes nothing.
ks_ccache_dir() {
	local d
	case $KSERIES_CACHE in
	*[[:cntrl:]:]*) ks_say "error: KSERIES_CACHE has a control character or a ':': no ccache directory under it"
		return 1 ;;
	esac
	d=$(readlink -m -- "$KSERIES_CACHE")/ccache
	[ "${1:-}" != sid ] || d=$d-sid
	if [ -L "$d" ] || { [ -e "$d" ] && [ ! -d "$d" ]; }; then
		ks_say "error: $d is a symlink or not a directory: refusing it as the ccache directory"
		return 1
	fi
	printf '%s\n' "$d"
}

# ks_ccache_prepare DIR: make the ccache directory DIR (from
# ks_ccache_dir) when missing, owned by the build user; status 1 and one
# error line when that fails or DIR turned into a symlink meanwhile.
ks_ccache_prepare() {
	local d=$1
	mkdir -p -- "${d%/*}" && { mkdir -m 755 -- "$d" 2>/dev/null || true; } &&
		[ -d "$d" ] && [ ! -L "$d" ] ||
		{ ks_say "error: cannot make the ccache directory $d"; return 1; }
	if [ "$(stat -c %u -- "$d")" != "$KS_KBUILD_UID" ]; then
		chown -hR "$KS_KBUILD_UID:$KS_KBUILD_GID" -- "$d" ||
			{ ks_say "error: cannot give $d to the build user"; return 1; }
	fi
}

# ks_kbuild_make SRC BUILD JOBS [MAKEVAR...]: the make command line of a
# kernel/kbuild run, for make in SRC with O=BUILD: sets KS_MAKE (the argv;
# targets follow it), KS_MAKE_ENV (NAME=VALUE pairs it needs) and
# KS_MAKE_BIND (directories the build must be able to write besides
# BUILD).
#
# ccache (KSERIES_CCACHE, see ks_ccache_on; on by default when installed)
# works by masquerade: PATH starts with $KS_CCACHE_BIN, whose gcc is
# ccache, so that make's command line, and so every command line kbuild
# records in a build directory, is the one without ccache and turning it
# on or off rebuilds nothing. The cache is CCACHE_DIR=ks_ccache_dir
# (shared by every build directory, in KS_MAKE_BIND), limited to
# CCACHE_MAXSIZE=ks_ccache_size, and CCACHE_CONFIGPATH=/dev/null: the
# build may write the cache, but no ccache.conf it plants there
# configures a later build. No CCACHE_BASEDIR: ccache would hand the
# compiler paths relative to the build directory, so its diagnostics
# (which the build stage reads as findings) and __FILE__ (which
# -fmacro-prefix-map no longer strips) would name ../../wt/...; the
# build stages share one worktree, so build dirs hit alike without it. Only a caller that sets
# KS_MAKE_CAN_BIND=1 (it binds KS_MAKE_BIND read-write, as kbuild does)
# gets ccache: the others get the command line and environment without
# it (a cache the build cannot write fails every compile). Callers that
# build in the sid chroot set KS_MAKE_SID=1: the same masquerade with the
# chroot's /usr/lib/ccache (gcc, and clang for LLVM=1: kbuild's CC=clang
# finds ccache's clang first in PATH, the recorded command lines name
# clang as before) and the cache ks_ccache_dir sid.
#
# With KSERIES_DISTCC set (and valid: else status 1, one error line) the
# compiles go to distcc with DISTCC_HOSTS from it: through ccache as its
# CCACHE_PREFIX when ccache is on (the command line still unchanged),
# else CC="distcc gcc". ccache off and distcc unset, the argv is exactly
# "nice make -C SRC O=BUILD -jJOBS MAKEVAR..." with no environment.
ks_kbuild_make() {
	local src=$1 build=$2 jobs=$3 hosts dir size
	shift 3
	KS_MAKE=(nice make -C "$src" O="$build" -j"$jobs" "$@")
	KS_MAKE_ENV=()
	KS_MAKE_BIND=()
	local where=
	[ "${KS_MAKE_SID:-}" != 1 ] || where=sid
	ks_ccache_on $where || return 1
	[ "${KS_MAKE_CAN_BIND:-}" = 1 ] || KS_CCACHE=0
	if [ -n "${KSERIES_DISTCC+set}" ]; then
		hosts=$(ks_distcc_hosts "$KSERIES_DISTCC") || return 1
		KS_MAKE_ENV=("DISTCC_HOSTS=$hosts")
	fi
	if [ "$KS_CCACHE" = 1 ]; then
		size=$(ks_ccache_size) || return 1
		dir=$(ks_ccache_dir $where) || return 1
		KS_MAKE_ENV+=("PATH=$KS_CCACHE_BIN:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
			"CCACHE_DIR=$dir" "CCACHE_MAXSIZE=$size"
			CCACHE_CONFIGPATH=/dev/null)
		[ -z "${KSERIES_DISTCC+set}" ] || KS_MAKE_ENV+=("CCACHE_PREFIX=distcc")
		KS_MAKE_BIND=("$dir")
	elif [ -n "${KSERIES_DISTCC+set}" ]; then
		KS_MAKE+=("CC=distcc gcc")
	fi
}

# ---- cross builds (kernel/c-cross-*.config) ----
#
# A c-cross-NAME.config fragment builds with a Debian cross gcc on the
# host: its "# kseries-cross: ARCH CROSS_COMPILE PACKAGE" line names make's
# ARCH, the compiler prefix and the Debian package that has
# ${CROSS_COMPILE}gcc (e.g. "mips mips-linux-gnu- gcc-mips-linux-gnu").
# tools/stage-build.c reads the same line, with the same rules.

# KS_CROSS_PATH: where the build looks for the cross gcc, chroot-run
# --host's PATH (fixed: never taken from the environment).
KS_CROSS_PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin

# ks_cross FRAG SRC: sets KS_CROSS_ARCH, KS_CROSS_COMPILE and
# KS_CROSS_PACKAGE from FRAG's kseries-cross line. ARCH must be a
# directory arch/ARCH of the kernel tree SRC, CROSS_COMPILE a
# "word-word-...-" prefix (no '/': a compiler from PATH, never a path),
# PACKAGE a Debian package name; one such line, nothing after PACKAGE.
# Anything else: status 1 and one error line (the value with anything
# outside its alphabet shown as '?'). Writes nothing.
ks_cross() {
	local frag=$1 src=$2 lines n a c p rest
	lines=$(grep -c '^# kseries-cross:' "$frag" || true)
	KS_CROSS_ARCH='' KS_CROSS_COMPILE='' KS_CROSS_PACKAGE=''
	if [ "$lines" != 1 ]; then
		ks_say "error: ${frag##*/} has $lines '# kseries-cross: ARCH CROSS_COMPILE PACKAGE' lines: want one"
		return 1
	fi
	n=$(sed -n 's/^# kseries-cross:\(.*\)$/\1/p' "$frag")
	read -r a c p rest <<<"$n"
	if ! [[ $a =~ ^[a-z][a-z0-9_]{0,31}$ ]] || [ ! -f "$src/arch/$a/Kconfig" ]; then
		ks_say "error: ${frag##*/}: bad ARCH '${a//[^-A-Za-z0-9_.]/?}': want a directory of arch/ in the tree"
		return 1
	fi
	if ! [[ $c =~ ^[a-z0-9_]+(-[a-z0-9_]+)*-$ ]] || [ ${#c} -gt 64 ]; then
		ks_say "error: ${frag##*/}: bad CROSS_COMPILE '${c//[^-A-Za-z0-9_.]/?}': want a prefix like mips-linux-gnu-"
		return 1
	fi
	if ! [[ $p =~ ^[a-z0-9][a-z0-9+.-]{1,63}$ ]] || [ -n "$rest" ]; then
		ks_say "error: ${frag##*/}: bad PACKAGE '${p//[^-A-Za-z0-9_.+]/?}${rest:+ ...}': want one Debian package name"
		return 1
	fi
	KS_CROSS_ARCH=$a KS_CROSS_COMPILE=$c KS_CROSS_PACKAGE=$p
}

# ks_cross_gcc: whether ${KS_CROSS_COMPILE}gcc is in KS_CROSS_PATH (the
# build's PATH); status 1 and one error line naming the package if not.
ks_cross_gcc() {
	local gcc=${KS_CROSS_COMPILE}gcc
	if ! PATH=$KS_CROSS_PATH command -v "$gcc" >/dev/null; then
		ks_say "error: no $gcc (Debian package $KS_CROSS_PACKAGE): install it to build this config"
		return 1
	fi
}
