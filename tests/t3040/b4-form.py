#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""b4-form.py - mails as b4's review check runner hands them, for t3040

usage: b4-form.py lore CTE CHARSET MSGID <PATCH >MAIL
       b4-form.py feed <MAIL >MESSAGE

lore: the stored patch PATCH as a list would carry it: its From, Date
and Subject, a Message-ID, and the body in CHARSET with the
Content-Transfer-Encoding CTE (base64, quoted-printable, 8bit); with
CTE multipart-ENC, that text as the first part of a multipart/mixed
mail, in ENC, a small attachment after it.

feed: MAIL as b4 (review-perpatch-check-cmd, review-series-check-cmd)
writes it to the command's stdin: the header fields as its parser read
them ("Name: value", in order, values as the email package gives them),
a blank line, then the body decoded from its transfer encoding, still in
its charset, each line without its CR/LF ends, LF-terminated. The
Content-Transfer-Encoding header stays: it describes the original. A
multipart mail has no body of its own to decode: its text part goes
out instead, in UTF-8, under the multipart headers.
"""
import email
import email.policy
import sys

POLICY = email.policy.EmailPolicy(utf8=True, cte_type='8bit',
                                  max_line_length=None)


def lore(cte, charset, msgid):
    raw = sys.stdin.buffer.read()
    m = email.message_from_bytes(raw, policy=POLICY)
    body = m.get_payload(decode=True).decode('utf-8')
    out = email.message.EmailMessage(policy=email.policy.default)
    for h in ('From', 'Date', 'Subject'):
        out[h] = m[h]
    out['Message-ID'] = msgid
    multipart = cte.startswith('multipart-')
    if multipart:
        cte = cte[len('multipart-'):]
    out.set_content(body, subtype='plain', charset=charset, cte=cte)
    if multipart:
        out.add_attachment(b'\x00\x01 not text', maintype='application',
                           subtype='octet-stream', filename='blob.bin')
    sys.stdout.buffer.write(out.as_bytes())


def feed():
    m = email.message_from_bytes(sys.stdin.buffer.read(), policy=POLICY)
    data = b''
    for name, value in m.items():
        data += ('%s: %s\n' % (name, str(value))).encode()
    data += b'\n'
    payload = m.get_payload(decode=True)
    if not isinstance(payload, bytes):
        text = next(p for p in m.walk() if p.get_content_type() == 'text/plain')
        payload = text.get_content().encode('utf-8', errors='replace')
    for line in payload.split(b'\n'):
        data += line.rstrip(b'\r\n') + b'\n'
    sys.stdout.buffer.write(data)


if __name__ == '__main__':
    if sys.argv[1:2] == ['lore'] and len(sys.argv) == 5:
        lore(*sys.argv[2:])
    elif sys.argv[1:] == ['feed']:
        feed()
    else:
        sys.exit(__doc__)
