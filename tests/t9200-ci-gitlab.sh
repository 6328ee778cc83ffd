#!/usr/bin/env bash
test_description='ci --gitlab: the check pipeline as GitLab CI YAML'
. "$(dirname "$0")/lib.sh"

SKIP_REASON=${SKIP_REASON_TREE:-}
export KSERIES_CACHE=$TRASH/cache
PY=/usr/bin/python3
if $PY -c 'import yaml' 2>/dev/null; then
	test_set_prereq YAML
else
	SKIP_REASON=${SKIP_REASON:-no python3-yaml}
fi
if command -v gitlab-ci-local >/dev/null 2>&1; then
	test_set_prereq GCL
fi

# yaml_jobs FILE: "JOB STAGE NEEDS KEY TAGS" per job of the pipeline FILE
yaml_jobs() {
	$PY -c '
import sys, yaml
y = yaml.safe_load(open(sys.argv[1]))
for name, job in y.items():
    if not isinstance(job, dict) or "script" not in job:
        continue
    print(name, job["stage"], ",".join(job.get("needs", [])) or "-",
          job.get("cache", {}).get("key", "-"),
          ",".join(job.get("tags", [])) or "-")
' "$1"
}

test_expect_success TREE,YAML 'setup: two one-patch series, one of them in v2' '
	test_sender "A U Thor" author@example.org &&
	test_series good 1 &&
	test_binder_patch store/series/good/v1/0001-x.patch \
		"[PATCH] binder: explain the lru lock" \
		"s|^static struct page \*binder_page_lookup|/* Looks up the page installed at addr. */\n&|" &&
	test_series other 1 &&
	cp store/series/good/v1/0001-x.patch store/series/other/v1/ &&
	mkdir store/series/other/v2 &&
	cp store/series/good/v1/0001-x.patch store/series/other/v2/
'

test_expect_success TREE,YAML 'the pipeline parses: one job per stage, needs in stage order' '
	cd store &&
	kseries ci --gitlab good >../ci.yml &&
	yaml_jobs ../ci.yml >../jobs &&
	kseries check --list-stages >../stages &&
	test "$(wc -l <../jobs)" = $(($(wc -l <../stages) + 1)) &&
	prev=- &&
	while read -r st; do
		grep -q "^good-v1-$st $st $prev " ../jobs || { echo "no job $st after $prev"; return 1; }
		prev=good-v1-$st
	done <../stages &&
	grep "^good-v1-apply apply - - -$" ../jobs &&
	grep "^kseries-results results - - -$" ../jobs &&
	$PY -c "
import yaml
y = yaml.safe_load(open(\"../ci.yml\"))
assert y[\"stages\"][-1] == \"results\", y[\"stages\"]
assert y[\"stages\"][:-1] == open(\"../stages\").read().split()
assert \"kseries check '\''good@v1'\'' --stage checkpatch --kcidb kcidb/good-v1-checkpatch.json\" in y[\"good-v1-checkpatch\"][\"script\"]
assert \"kcidb/good-v1-checkpatch.json\" in y[\"good-v1-checkpatch\"][\"artifacts\"][\"paths\"]
assert \".kseries-cache/results/good/v1/checkpatch.*\" in y[\"good-v1-checkpatch\"][\"artifacts\"][\"paths\"]
assert \"needs\" not in y[\"kseries-results\"]
"
'

test_expect_success TREE,YAML 'heavy stages are tagged kvm, light ones are not' '
	for st in build sparse rust kunit vm perf; do
		grep -q "^good-v1-$st .* kvm$" jobs || { echo "$st untagged"; return 1; }
	done &&
	test "$(grep -c " kvm$" jobs)" = 6
'

test_expect_success TREE,YAML 'each cache key is the key a light check stores' '
	(cd store && kseries check good --stage apply --stage format --stage provenance --stage checkpatch) &&
	for st in format provenance checkpatch; do
		stored=$($PY -c "import json,sys; print(json.load(open(sys.argv[1]))[\"key\"])" \
			cache/results/good/v1/$st.json) &&
		grep -q "^good-v1-$st $st [^ ]* $stored -$" jobs ||
			{ echo "$st: stored key $stored not in the pipeline"; return 1; }
	done
'

test_expect_success TREE,YAML 'SERIES@vN and --all pick the versions' '
	cd store &&
	kseries ci --gitlab other@v1 >../v1.yml &&
	yaml_jobs ../v1.yml >../v1.jobs &&
	grep -q "^other-v1-apply " ../v1.jobs &&
	! grep -q "^other-v2-" ../v1.jobs &&
	kseries ci --gitlab --all >../all.yml &&
	yaml_jobs ../all.yml >../all.jobs &&
	grep -q "^good-v1-mail " ../all.jobs &&
	grep -q "^other-v2-mail " ../all.jobs &&
	! grep -q "^other-v1-" ../all.jobs &&
	grep -F "kseries check '\''good@v1'\'' '\''other@v2'\'' --json" ../all.yml
'

test_expect_success TREE,YAML 'a name that cannot be a job name is refused, nothing printed' '
	mkdir -p "store/series/we\"ird/v1" &&
	printf "[series]\n\ttitle = t\n\tbase = v7.2.13\n" >"store/series/we\"ird/series.conf" &&
	cd store &&
	test_expect_code 1 kseries ci --gitlab --all >../out 2>../err &&
	test ! -s ../out &&
	grep "cannot be a GitLab job name" ../err &&
	rm -r "series/we\"ird"
'

test_expect_success 'bad usage' '
	mkdir -p store/series &&
	cd store &&
	test_expect_code 129 kseries ci good &&
	test_expect_code 129 kseries ci --gitlab &&
	test_expect_code 129 kseries ci --gitlab --all good
'

test_expect_success 'completion: --gitlab first, then series names and options' '
	cd store &&
	complete() { test_complete_words "$@" | tr "\n" " "; } &&
	complete kseries ci "" >../c1 &&
	complete kseries ci --gitlab "" >../c2 &&
	complete kseries ci --gitlab --a >../c3 &&
	cat ../c1 ../c2 ../c3 &&
	test "$(cat ../c1)" = "--gitlab good other " &&
	test "$(cat ../c2)" = "good other " &&
	test "$(cat ../c3)" = "--all "
'

SKIP_REASON="gitlab-ci-local is not installed (npm install -g gitlab-ci-local@4.60.0)"
test_have_prereq TREE || SKIP_REASON=$SKIP_REASON_TREE

test_expect_success TREE,YAML,GCL 'gitlab-ci-local lists the jobs and runs the light stages to PASS' '
	cd store &&
	git init -q &&
	kseries ci --gitlab good >.gitlab-ci.yml &&
	git add -A && git commit -q -m fixture &&
	git clone -q . ../clone &&
	cd ../clone &&
	export PATH="$SRC_DIR:$PATH" &&
	unset KSERIES_CACHE KSERIES_DIR &&
	gitlab-ci-local --list >../list &&
	while read -r job rest; do
		grep -q "^$job " ../list || { echo "$job not listed"; return 1; }
	done <../jobs &&
	# every light stage, each job on its own: never a kvm-tagged one
	grep "^good-v1-.* -$" ../jobs >../light &&
	test "$(wc -l <../light)" = 8 &&
	while read -r job st rest; do
		gitlab-ci-local --variable "KSERIES_TREE=$KSERIES_TREE" "$job" >../run-$st 2>&1 ||
			{ cat ../run-$st; return 1; }
		want=pass && test $st != model || want=skip
		grep -q "PASS  *$job" ../run-$st &&
		grep -q "good  *v1  $st  *$want" ../run-$st || { cat ../run-$st; return 1; }
	done <../light &&
	test -f kcidb/good-v1-checkpatch.json &&
	grep "\"status\": \"pass\"" .kseries-cache/results/good/v1/checkpatch.json
'

test_done
