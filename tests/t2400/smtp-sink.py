#!/usr/bin/env python3
# smtp-sink.py DIR [REFUSED-ADDRESS...] - a real SMTP server on
# 127.0.0.1 for the tests: it takes a free port, writes it to DIR/port
# once it listens, and saves each message it accepts as DIR/N.eml with
# its envelope in DIR/N.env ("MAIL FROM:<a>" then "RCPT TO:<b>" lines).
# A RCPT TO one of the refused addresses gets "550 5.1.1". Runs until
# it is sent SIGTERM.
import os
import signal
import socket
import sys
import threading

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, out, refused):
        self.out = out
        self.refused = {a.lower() for a in refused}
        self.n = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower() in self.refused:
            return "550 5.1.1 <%s>: recipient refused" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.n += 1
        base = os.path.join(self.out, "%d" % self.n)
        with open(base + ".eml.tmp", "wb") as f:
            f.write(envelope.original_content)
        with open(base + ".env", "w") as f:
            f.write("MAIL FROM:<%s>\n" % envelope.mail_from)
            for r in envelope.rcpt_tos:
                f.write("RCPT TO:<%s>\n" % r)
        os.rename(base + ".eml.tmp", base + ".eml")
        return "250 Message accepted for delivery"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main():
    out = sys.argv[1]
    port = free_port()
    c = Controller(Sink(out, sys.argv[2:]), hostname="127.0.0.1", port=port)
    c.start()
    with open(os.path.join(out, "port.tmp"), "w") as f:
        f.write("%d\n" % port)
    os.rename(os.path.join(out, "port.tmp"), os.path.join(out, "port"))
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: done.set())
    signal.signal(signal.SIGINT, lambda *a: done.set())
    done.wait()
    c.stop()


if __name__ == "__main__":
    main()
