# A web server that answers badly, for kseries fetch's error paths:
#   /http500/...   HTTP 500
#   /truncated/... a gzip body cut short of its Content-Length
#   /notgzip/...   200 with plain text
# Prints its port, then serves until killed.
import gzip
import http.server
import sys

BODY = gzip.compress(b"From mboxrd@z Thu Jan  1 00:00:00 1970\nSubject: x\n\nx\n" * 100)


class Handler(http.server.BaseHTTPRequestHandler):
    def answer(self):
        if self.path.startswith("/http500/"):
            self.send_response(500)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif self.path.startswith("/truncated/"):
            self.send_response(200)
            self.send_header("Content-Type", "application/gzip")
            self.send_header("Content-Length", str(len(BODY)))
            self.end_headers()
            self.wfile.write(BODY[: len(BODY) // 2])
            self.wfile.flush()
            self.close_connection = True
        else:
            self.send_response(200)
            self.send_header("Content-Length", "6")
            self.end_headers()
            self.wfile.write(b"hello\n")

    do_GET = answer
    do_POST = answer

    def log_message(self, *args):
        pass


srv = http.server.HTTPServer(("127.0.0.1", 0), Handler)
print(srv.server_address[1], flush=True)
sys.stdout.close()
srv.serve_forever()
