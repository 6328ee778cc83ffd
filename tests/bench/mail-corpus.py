#!/usr/bin/env python3
# mail-corpus.py - a large mbox made of the repo's own mail, for the
# mail benchmarks. Nothing large is committed: it is written at run time.
#
#   mail-corpus.py review N OUT   copies of every mail the repo holds (the
#                                 seed threads, the mailer fixtures, the
#                                 series' patches and thread.mbox files)
#                                 until N messages
#   mail-corpus.py import N OUT   one posting (the cover and patch of
#                                 binder-alloc-spinlock v1), then copies
#                                 of the repo's replies until N messages
#
# It prints "messages N posting BYTES": BYTES is the size of the posting
# in OUT (0 for review), what import's peak RSS is measured against.
#
# Every copy gets its own Message-IDs: the '@' of Message-ID, In-Reply-To
# and References (folded lines included) becomes ".cK@" in copy K, so each
# copy is a thread of its own and nothing is a duplicate. Folded Subject:
# lines are unfolded (see unfold_subject): the same input for every tool.
import glob
import os
import re
import sys

SRC = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "..", ".."))
FROM_LINE = re.compile(rb"^From \S+ [A-Z][a-z][a-z] ")
ID_FIELD = re.compile(rb"^(message-id|in-reply-to|references):", re.I)


def messages(path):
    """The messages of an mbox (or a single format-patch file), as bytes."""
    with open(path, "rb") as f:
        data = f.read()
    lines = data.splitlines(keepends=True)
    out, cur, prev_blank = [], [], True
    for line in lines:
        if prev_blank and FROM_LINE.match(line) and cur:
            out.append(b"".join(cur))
            cur = []
        cur.append(line)
        prev_blank = line.strip() == b""
    if cur:
        out.append(b"".join(cur))
    return out


def unfold_subject(msg):
    """b4 0.12 stops ("Header values may not contain linefeed") on the
    folded Subject: of git format-patch mails: unfold it, for every tool."""
    head, sep, body = msg.partition(b"\n\n")
    head = re.sub(rb"^(Subject:[^\n]*)((?:\n[ \t][^\n]*)+)",
                  lambda m: m.group(1) + m.group(2).replace(b"\n", b""),
                  head, flags=re.M | re.I)
    return head + sep + body


def template(msg):
    """msg split at every '@' of its id fields: the pieces to join."""
    pieces, cur = [], []
    header, ids = True, False
    for i, line in enumerate(unfold_subject(msg).splitlines(keepends=True)):
        if header and i > 0 and line.strip() == b"":
            header = False
        if header and line[:1] not in (b" ", b"\t"):
            ids = bool(ID_FIELD.match(line))
        if header and ids and b"@" in line:
            parts = line.split(b"@")
            cur.append(parts[0])
            for p in parts[1:]:
                pieces.append(b"".join(cur))
                cur = [p]
        else:
            cur.append(line)
    pieces.append(b"".join(cur))
    if not pieces[-1].endswith(b"\n"):
        pieces[-1] += b"\n"
    pieces[-1] += b"\n"     # an empty line before the next From_ line
    return pieces


def subject(msg):
    m = re.search(rb"^Subject:(.*)$", msg, re.M | re.I)
    return m.group(1) if m else b""


def main():
    mode, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    files = (sorted(glob.glob(os.path.join(SRC, "tests/t0001/seed-*.mbox"))) +
             sorted(glob.glob(os.path.join(SRC, "tests/t1010/*.mbox"))) +
             sorted(glob.glob(os.path.join(SRC, "series/*/v*/*.patch"))) +
             sorted(glob.glob(os.path.join(SRC, "series/*/v*/thread.mbox"))))
    msgs = [m for f in files for m in messages(f)]
    head = []
    if mode == "import":
        posting = sorted(glob.glob(os.path.join(
            SRC, "series/binder-alloc-spinlock/v1/*.patch")))
        head = [m for f in posting for m in messages(f)]
        msgs = [m for m in msgs if re.match(rb"\s*(re|aw|sv):", subject(m), re.I)]
    elif mode != "review":
        sys.exit("usage: mail-corpus.py review|import N OUT")
    tmpls = [template(m) for m in msgs]
    posting = 0
    with open(out, "wb") as f:
        for m in head:
            m = m if m.endswith(b"\n\n") else m + b"\n"
            f.write(m)
            posting += len(m)
        written, k = len(head), 0
        while written < n:
            k += 1
            sep = b".c%d@" % k
            for t in tmpls:
                if written >= n:
                    break
                f.write(sep.join(t))
                written += 1
    print("messages %d posting %d" % (written, posting))


if __name__ == "__main__":
    main()
