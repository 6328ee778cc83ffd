/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_RECORD_H
#define KSERIES_RECORD_H

#include "series.h"

/*
 * The branch of the user's tree (work.h) recorded as a version of the
 * series (DESIGN.md §2, HACKING.md "A version we write"):
 *
 *  - the target: v(N+1) when the newest vN is not an unsent draft of
 *    ours (origin "ours" without a Message-ID), else vN again, updated
 *    in place; the version compared against ("prev") is vN, resp. the
 *    one before the draft;
 *  - the patches: git format-patch --cover-letter --base=BASE
 *    --subject-prefix="PREFIX vT" of the branch's commits above b4's
 *    cover commit, rebuilt first with the committer set to the author
 *    (the same branch gives the same files) and with the trailers
 *    collected for prev's patch added to each patch whose patch-id
 *    (git patch-id --stable) is unchanged, as `b4 trailers -u` does;
 *    a changed patch gets none, loses the review tags (Reviewed-by,
 *    Acked-by, Tested-by) prev's patch carried, and the cover says so;
 *  - the cover letter: title and text from the branch's b4 cover commit
 *    (comment lines dropped, as b4 does), else prev's (or the draft's)
 *    cover; its "Changes in vT:" block is drafted anew each time: new,
 *    changed and dropped patches (pairing by patch-id, then title), the
 *    feedback on prev marked addressed (reviewer and link, format.h)
 *    and "- Link to vP" only when prev was really posted; then the
 *    change-id line under base-commit;
 *  - series.conf: version.T.origin = ours and version.T.author, the
 *    user's identity in the tree.
 * Refused with one error line and nothing written: no commits on the
 * branch, a base that is not in the base repository, a branch that
 * does not contain the base (it rewrote it), a merge commit, an
 * unresolved conflict (in the tree, or conflict markers in the diff).
 * Prints what was recorded, or that nothing changed.
 */
int record_branch(struct series *s, const char *tree, const char *branch);

#endif
