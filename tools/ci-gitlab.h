/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_CI_GITLAB_H
#define KSERIES_CI_GITLAB_H

#include <stdio.h>

#include <glib.h>

/*
 * A GitLab CI pipeline that checks versions of the store's series:
 * one job per (series, version, stage), stages in check's table order
 * (check_stages[]), each job needing the one before it in its version
 * (apply first), running `kseries check NAME@vN --stage S --kcidb F`.
 * A stage's job keeps its result file under GitLab's cache with the
 * stage's content key (check_version_keys()) as cache key, and as
 * artifacts that result and its KCIDB file. Stages that build or boot
 * the kernel (CHECK_IN_KERNEL) are tagged "kvm". A last job, with no
 * needs so that it gets every job's artifacts, merges the results:
 * `kseries check SPEC... --json --kcidb`, served from the cache.
 *
 * specs are "NAME" (its latest version) or "NAME@vN". Writes the YAML
 * to out only when every version could be keyed; else -1 with one
 * error (a name that cannot be a job name, a version that does not
 * apply).
 */
int ci_gitlab_print(FILE *out, GPtrArray *specs);

#endif
