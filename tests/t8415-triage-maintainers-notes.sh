#!/bin/bash
# The triage series (series/usb-*, block-*, tpm-*; cocci/TRIAGE.md) and
# MAINTAINERS-notes/: every file a series touches matches a note's
# Paths: (as tools/recipients.c matches them: '*' also matches '/', a
# glob ending in '/' covers the directory), the series' series.conf
# mails every To: and Cc: of those notes (the notes' To: in series.to),
# its tree is one the notes name and each patch's subject starts with a
# Prefix: of theirs (as stage-mail compares them). With the base tree,
# every name and address of every note is the one MAINTAINERS or
# .mailmap at v7.2.13 gives, every Paths: glob matches a file of the
# tree, every Tree: is a T: of MAINTAINERS, and the prose names an
# entry of MAINTAINERS. No kernel, no kseries run: the files only.
test_description='triage series: a MAINTAINERS note for every touched file, and its recipients'
. "$(dirname "$0")/lib.sh"

NOTES=$SRC_DIR/MAINTAINERS-notes
SERIES_DIR=$SRC_DIR/series

# The notes' header blocks, read once: NOTE_KEY[path|Key] holds the
# values of Key:, one a line (keys as the notes spell them)
declare -A NOTE_KEY=()
NOTE_LIST=()
for n in "$NOTES"/*; do
	case ${n##*/} in README | .*) continue ;; esac
	test -f "$n" || continue
	NOTE_LIST+=("$n")
	while IFS= read -r line; do
		test -n "$line" || break
		case $line in *:*) ;; *) continue ;; esac
		key=${line%%:*} val=${line#*:}
		val=${val#"${val%%[![:space:]]*}"}
		NOTE_KEY[$n|$key]+="$val"$'\n'
	done <"$n"
done

# note_field NOTE KEY: the values of KEY: in NOTE's header block
note_field() {
	printf '%s' "${NOTE_KEY[$1|$2]:-}"
}

# The lower-cased addr-spec of "Name <addr>" or "addr"
addr_of() {
	local a=$1

	case $a in *'<'*) a=${a##*<} a=${a%%>*} ;; esac
	printf '%s\n' "${a,,}"
}

# glob_match PATH GLOB: maint_note_matches() for one glob
glob_match() {
	case $2 in */) case $1 in "$2"*) return 0 ;; esac ;; esac
	# shellcheck disable=SC2254
	case $1 in $2) return 0 ;; esac
	return 1
}

# note_globs NOTE: its Paths: globs into the array globs (not expanded)
note_globs() {
	read -ra globs -d '' <<<"${NOTE_KEY[$1|Paths]:-}" || true
}

note_matches() {
	local g globs

	note_globs "$1"
	for g in "${globs[@]}"; do
		glob_match "$2" "$g" && return 0
	done
	return 1
}

notes() {
	printf '%s\n' "${NOTE_LIST[@]}"
}

triage_series() {
	local d

	for d in "$SERIES_DIR"/usb-* "$SERIES_DIR"/block-* "$SERIES_DIR"/tpm-*; do
		test -d "$d" && printf '%s\n' "${d##*/}"
	done
}

last_version() {
	ls -d "$SERIES_DIR/$1"/v[0-9]* | sort -V | tail -n 1
}

# the tree paths the patches of NAME's last version touch
touched() {
	local p

	for p in "$(last_version "$1")"/[0-9][0-9][0-9][0-9]-*.patch; do
		case ${p##*/} in 0000-cover-letter.patch) continue ;; esac
		sed -n 's|^diff --git a/\(.*\) b/\(.*\)$|\1\n\2|p' "$p"
	done | sort -u
}

# the notes matching any file NAME touches
matching_notes() {
	local n f

	touched "$1" >"$1.touched"
	for n in $(notes); do
		while read -r f; do
			if note_matches "$n" "$f"; then
				printf '%s\n' "$n"
				break
			fi
		done <"$1.touched"
	done
}

test_expect_success 'the triage series: 16, every one named in TRIAGE.md among them' '
	triage_series | sort >names &&
	test "$(wc -l <names)" = 16 &&
	grep -o "series/[a-z0-9_-]*" "$SRC_DIR/cocci/TRIAGE.md" |
		sed "s|^series/||" | sort -u >named &&
	test -s named &&
	comm -23 named names >missing &&
	test_cmp /dev/null missing
'

each_series() {
	local s

	for s in $(triage_series); do
		"$@" "$s" || {
			echo "$s: failed"
			return 1
		}
	done
}

files_have_notes() {
	local f n ok

	touched "$1" >files &&
	test -s files || { echo "$1: no touched file"; return 1; }
	while read -r f; do
		ok=
		for n in $(notes); do
			note_matches "$n" "$f" && ok=1
		done
		test -n "$ok" || { echo "$1: $f: no note matches"; return 1; }
	done <files
}

test_expect_success 'every touched file matches a note' '
	each_series files_have_notes
'

# series.to and series.to+cc of NAME as addresses, one a line
conf_addrs() {
	local conf=$SERIES_DIR/$1/series.conf w

	git config -f "$conf" --get-all series.to | while read -r w; do
		addr_of "$w"
	done >"$1.to"
	{
		cat "$1.to"
		git config -f "$conf" --get-all series.cc | while read -r w; do
			addr_of "$w"
		done
	} >"$1.all"
}

recipients_agree() {
	local n w a

	conf_addrs "$1" &&
	matching_notes "$1" >"$1.notes" &&
	test -s "$1.notes" || return 1
	for n in $(cat "$1.notes"); do
		while read -r w; do
			a=$(addr_of "$w")
			grep -qxF "$a" "$1.to" ||
				{ echo "$1: ${n##*/} To: $w not in series.to"; return 1; }
		done < <(note_field "$n" To)
		while read -r w; do
			a=$(addr_of "$w")
			grep -qxF "$a" "$1.all" ||
				{ echo "$1: ${n##*/} Cc: $w not in series.to/cc"; return 1; }
		done < <(note_field "$n" Cc)
	done
	# someone in To, and nothing in both
	test -s "$1.to" &&
	test -z "$(sort "$1.all" | uniq -d)" ||
		{ echo "$1: no To, or an address twice"; return 1; }
}

test_expect_success 'series.conf mails the matching notes: their To: in To, their Cc: in To or Cc' '
	each_series recipients_agree
'

tree_agrees() {
	local tree repo n t ok=

	tree=$(git config -f "$SERIES_DIR/$1/series.conf" series.tree) &&
	repo=${tree%% *} &&
	test -n "$repo" || { echo "$1: no series.tree"; return 1; }
	for n in $(matching_notes "$1"); do
		while read -r t; do
			test "${t%% *}" = "$repo" && ok=1
		done < <(note_field "$n" Tree)
	done
	test -n "$ok" || { echo "$1: $repo is no matching note's Tree:"; return 1; }
}

test_expect_success 'series.tree is a Tree: of its notes' '
	each_series tree_agrees
'

# maint_prefix_ok(): the subject starts with the prefix up to the end of
# a component (": " or "/" follows it)
prefix_ok() {
	local title=$1 p

	shift
	for p in "$@"; do
		p=${p%:}
		test -n "$p" || continue
		case ${title,,} in "${p,,}: "* | "${p,,}"/*) return 0 ;; esac
	done
	return 1
}

subjects_ok() {
	local p subj n want=()

	for n in $(matching_notes "$1"); do
		while read -r pre; do
			want+=("$pre")
		done < <(note_field "$n" Prefix)
	done
	test ${#want[@]} -gt 0 || { echo "$1: no Prefix: in its notes"; return 1; }
	for p in "$(last_version "$1")"/[0-9][0-9][0-9][0-9]-*.patch; do
		case ${p##*/} in 0000-cover-letter.patch) continue ;; esac
		subj=$(sed -n "s/^Subject: *//p" "$p" | head -n 1) &&
		subj=${subj#\[*\] } &&
		prefix_ok "$subj" "${want[@]}" ||
			{ echo "$1: '$subj' has none of: ${want[*]}"; return 1; }
	done
}

test_expect_success 'each patch subject starts with a Prefix: of its notes' '
	each_series subjects_ok
'

note_shape() {
	local w

	test -n "$(note_field "$1" Subsystem)" &&
	test -n "$(note_field "$1" Paths)" &&
	test -n "$(note_field "$1" To)$(note_field "$1" Cc)" || {
		echo "${1##*/}: no Subsystem:, Paths: or recipient"
		return 1
	}
	while read -r w; do
		case $w in
		*' <'*@*'>' | [!\ \<]*@*[!\>]) ;;
		*) echo "${1##*/}: not one address: $w"; return 1 ;;
		esac
	done < <(note_field "$1" To; note_field "$1" Cc; note_field "$1" List)
	# prose after the header block
	test -n "$(sed -n '/^$/,$p' "$1" | tr -d '[:space:]')" ||
		{ echo "${1##*/}: no prose"; return 1; }
}

test_expect_success 'every note: Subsystem:, Paths:, recipients, one address a line, prose' '
	for n in $(notes); do note_shape "$n" || exit 1; done
'

# With the base tree: the notes against MAINTAINERS and .mailmap
test_expect_success TREE 'the base tree: MAINTAINERS, .mailmap, file list' '
	git -C "$KSERIES_TREE" show v7.2.13:MAINTAINERS >MAINTAINERS &&
	git -C "$KSERIES_TREE" show v7.2.13:.mailmap >mailmap &&
	git -C "$KSERIES_TREE" ls-tree -r --name-only v7.2.13 >files &&
	test -s MAINTAINERS && test -s mailmap && test -s files
'

# "Name <addr>" as MAINTAINERS (an M:/R: line) or .mailmap (a proper
# name and address, not one it maps away) has it; a bare address on an
# L: line
who_known() {
	local a

	a=$(addr_of "$1")
	case $1 in
	*'<'*)
		# a current address: an M:/R: line's, or a .mailmap line's first
		grep -qi "^[MR]:[[:space:]].*<$a>" MAINTAINERS ||
			grep -qi "^[^<#]*<$a>" mailmap || return 1
		grep -qF "$1" MAINTAINERS || grep -qF "$1" mailmap
		;;
	*)
		grep -q "^L:[[:space:]]*$a\( \|$\)" MAINTAINERS
		;;
	esac
}

test_expect_success TREE 'every name and address of a note is in MAINTAINERS or .mailmap' '
	for n in $(notes); do
		while read -r w; do
			who_known "$w" || { echo "${n##*/}: $w"; exit 1; }
		done < <(note_field "$n" To; note_field "$n" Cc; note_field "$n" List)
	done
'

# A Paths: glob as an extended regular expression over the file list
glob_ere() {
	local g=$1 dir=

	case $g in */) dir=1 ;; esac
	g=$(printf '%s' "$g" | sed -e 's/[.+(){}|^$\\]/\\&/g' -e 's/\*/.*/g' -e 's/?/./g')
	if test -n "$dir"; then
		printf '^%s' "$g"
	else
		printf '^%s$' "$g"
	fi
}

test_expect_success TREE 'every Paths: glob matches a file of the base tree' '
	for n in $(notes); do
		note_globs "$n" &&
		for g in "${globs[@]}"; do
			grep -qE "$(glob_ere "$g")" files ||
				{ echo "${n##*/}: $g matches nothing"; exit 1; }
		done
	done
'

test_expect_success TREE 'every Tree: is a T: of MAINTAINERS, every note names an entry' '
	sed -n "/^[A-Z0-9]/p" MAINTAINERS >entries &&
	for n in $(notes); do
		while read -r t; do
			grep -F "${t%% *}" MAINTAINERS |
				grep -q "^T:[[:space:]]*git ${t%% *}\( .*\)\{0,1\}\$" ||
				{ echo "${n##*/}: Tree: $t"; exit 1; }
		done < <(note_field "$n" Tree)
		sed -n "/^\$/,\$p" "$n" | tr "\n" " " |
			grep -o "\"[^\"]*\"" | tr -d "\"" >quoted
		grep -qxFf quoted entries ||
			{ echo "${n##*/}: names no MAINTAINERS entry in quotes"; exit 1; }
	done
'

test_done
