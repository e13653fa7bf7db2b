#!/usr/bin/python3
"""Receives the job log lava-run posts (--url) and writes it as lava-server does: each posted
line, `- ` and its YAML flow mapping, appended to the log file (lava-server's output.yaml,
the `log.yaml` a LAVA job's page offers), lines a retry sends again skipped by their index.

usage: lava-log-receiver.py PORT LOG_FILE
"""
import http.server
import json
import sys
import urllib.parse

PORT = int(sys.argv[1])
LOG = sys.argv[2]
written = 0


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        global written
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        form = urllib.parse.parse_qs(body.decode("utf-8"), keep_blank_values=True)
        lines = form["lines"][0].split("\n")
        index = int(form["index"][0])
        skip = written - index
        with open(LOG, "ab") as out:
            for line in lines:
                if skip > 0:
                    skip -= 1
                    continue
                out.write((line + "\n").encode("utf-8"))
                written += 1
        reply = json.dumps({"line_count": len(lines)}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args):
        pass


http.server.HTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
