# bash completion for kseries(1): commands, options, series names, stage
# names. Source it, or install it as
# $(datadir)/bash-completion/completions/kseries (make install).
#
# What it completes comes from kseries itself: the commands from
# `kseries -h`, each command's options from `kseries CMD -h`, the stage
# names from `kseries check --list-stages`; the series are the
# directories of the store's series/ (-C DIR, $KSERIES_DIR, or the first
# directory up from here that has one, as kseries finds it).

# The store's top directory, or nothing.
__kseries_store() {
	local i dir
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} == -C && $((i + 1)) -lt COMP_CWORD ]]; then
			echo "${COMP_WORDS[i + 1]}"
			return
		fi
	done
	if [[ -n ${KSERIES_DIR-} ]]; then
		echo "$KSERIES_DIR"
		return
	fi
	dir=$PWD
	while :; do
		if [[ -d $dir/series ]]; then
			echo "$dir"
			return
		fi
		[[ -z $dir || $dir == / ]] && return
		dir=${dir%/*}
		[[ -z $dir ]] && dir=/
	done
}

# Series names; with "NAME@", that series' versions as NAME@vN.
__kseries_series() {
	local cur=$1 top d name
	top=$(__kseries_store)
	[[ -n $top && -d $top/series ]] || return
	if [[ $cur == *@* ]]; then
		name=${cur%%@*}
		for d in "$top/series/$name"/v[0-9]*; do
			[[ -d $d ]] && echo "$name@${d##*/}"
		done
		return
	fi
	for d in "$top/series"/*; do
		[[ -d $d && ${d##*/} != .* ]] && echo "${d##*/}"
	done
}

# The versions of series $1 as vN.
__kseries_versions() {
	local top d
	top=$(__kseries_store)
	for d in "$top/series/$1"/v[0-9]*; do
		[[ -d $d ]] && echo "${d##*/}"
	done
}

__kseries_commands() {
	"${KSERIES_PROGRAM:-kseries}" -h 2>/dev/null |
		sed -n '/^commands:/,$ s/^  \([a-z0-9-]*\) .*/\1/p'
}

# The long options `kseries CMD -h` lists, --[no-]x as --x and --no-x.
__kseries_options() {
	"${KSERIES_PROGRAM:-kseries}" "$1" -h 2>/dev/null |
		sed -n 's/^ \{4\}\(-[a-zA-Z], \)\{0,1\}\(--[^ ]*\).*/\2/p' |
		sed 's/^--\[no-\]\(.*\)/--\1\n--no-\1/'
}

_kseries() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local i cmd= cmdi=0 words

	COMPREPLY=()
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-C) ((i++)) ;;
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; cmdi=$i; break ;;
		esac
	done
	if [[ -z $cmd ]]; then
		case $prev in
		-C) COMPREPLY=($(compgen -d -- "$cur")); return ;;
		esac
		if [[ $cur == -* ]]; then
			words="-C --color --no-color --help --version"
		else
			words=$(__kseries_commands)
		fi
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
	fi
	case $prev in
	--stage)
		COMPREPLY=($(compgen -W "$("${KSERIES_PROGRAM:-kseries}" check --list-stages 2>/dev/null)" -- "$cur"))
		return ;;
	-o|--output-dir|-w|--worktree|--kcidb|--html)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--status)
		COMPREPLY=($(compgen -W "addressed open outdated wontfix" -- "$cur"))
		return ;;
	-b|--branch|-n|--name|--note|--reason|--in-reply-to|--to|--cc|--base|-j|--version)
		return ;;
	-v)
		[[ $cmd == import ]] && return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(__kseries_options "$cmd")" -- "$cur"))
		return
	fi
	# the positional arguments: how many come before this one
	local n=0
	for ((i = cmdi + 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--stage|-o|--output-dir|-w|--worktree|--kcidb|--html|--status|-b|--branch|-n|--name|--note|--reason|--in-reply-to|--to|--cc|--base|-j)
			((i++)) ;;
		-*) ;;
		*) ((n++)) ;;
		esac
	done
	case $cmd in
	review)
		if ((n == 0)); then
			COMPREPLY=($(compgen -W "extract" -- "$cur"))
		else
			COMPREPLY=($(compgen -f -- "$cur"))
		fi ;;
	feedback)
		local sub=${COMP_WORDS[cmdi + 1]}
		if ((n == 0)); then
			COMPREPLY=($(compgen -W "ingest resolve $(__kseries_series "$cur")" -- "$cur"))
		elif [[ $sub == ingest && n -eq 1 ]]; then
			COMPREPLY=($(compgen -W "$(__kseries_series "$cur")" -- "$cur"))
		elif [[ $sub == ingest ]]; then
			COMPREPLY=($(compgen -f -- "$cur"))
		fi ;;
	import)
		if ((n == 0)); then
			COMPREPLY=($(compgen -W "$(__kseries_series "$cur")" -- "$cur"))
		else
			COMPREPLY=($(compgen -f -- "$cur"))
		fi ;;
	diff)
		if ((n == 0)); then
			COMPREPLY=($(compgen -W "$(__kseries_series "$cur")" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(__kseries_versions "${COMP_WORDS[cmdi + 1]}")" -- "$cur"))
		fi ;;
	ci)
		# the form first: --gitlab is the one there is
		COMPREPLY=($(compgen -W "$(__kseries_series "$cur")" -- "$cur"))
		[[ " ${COMP_WORDS[*]} " == *" --gitlab "* ]] ||
			COMPREPLY+=($(compgen -W "--gitlab" -- "$cur")) ;;
	list|status) ;;
	withdraw)
		((n == 0)) && COMPREPLY=($(compgen -W "$(__kseries_series "$cur")" -- "$cur")) ;;
	*)
		COMPREPLY=($(compgen -W "$(__kseries_series "$cur")" -- "$cur")) ;;
	esac
}

complete -F _kseries kseries
