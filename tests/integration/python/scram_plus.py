#!/usr/bin/env python3
# tests/integration/python/scram_plus.py
#
# A SCRAM-SHA-256-PLUS client written from RFC 5802/5929, to show what
# libpq never sends: run by security_test.cpp as
#   scram_plus.py PORT USER PASSWORD MODE
# MODE: "good" binds to the server certificate's tls-server-end-point hash;
# "tampered" sends a wrong hash (a relayed exchange); "yflag" claims the
# server cannot bind (gs2 flag y) although it offered -PLUS; "plain" does
# not use TLS and prints the offered mechanisms. Prints "mechanisms: ...",
# then "ok" after AuthenticationOk or "error SQLSTATE message".
import base64
import hashlib
import hmac
import os
import socket
import ssl
import struct
import sys


def message(kind, body):
    return kind + struct.pack("!I", len(body) + 4) + body


def read_message(sock):
    head = b""
    while len(head) < 5:
        chunk = sock.recv(5 - len(head))
        if not chunk:
            raise EOFError("server closed the connection")
        head += chunk
    kind, length = head[:1], struct.unpack("!I", head[1:])[0]
    body = b""
    while len(body) < length - 4:
        chunk = sock.recv(length - 4 - len(body))
        if not chunk:
            raise EOFError("server closed the connection")
        body += chunk
    return kind, body


def error_text(body):
    fields = {}
    for part in body.split(b"\0"):
        if part:
            fields[part[:1]] = part[1:].decode()
    return "error %s %s" % (fields.get(b"C"), fields.get(b"M"))


def main():
    port, user, password, mode = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    sock = socket.create_connection(("127.0.0.1", port))
    binding = b""
    if mode != "plain":
        sock.sendall(struct.pack("!II", 8, 80877103))
        if sock.recv(1) != b"S":
            print("no TLS")
            return
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        sock = context.wrap_socket(sock)
        # The test certificates are signed with SHA-256.
        binding = hashlib.sha256(sock.getpeercert(binary_form=True)).digest()
    params = b"user\0" + user.encode() + b"\0database\0hearth\0\0"
    sock.sendall(struct.pack("!II", len(params) + 8, 196608) + params)
    kind, body = read_message(sock)
    if kind == b"E":
        print(error_text(body))
        return
    mechanisms = [m.decode() for m in body[4:].split(b"\0") if m]
    print("mechanisms: " + ",".join(mechanisms))
    if mode == "plain":
        return
    if mode == "yflag":
        mechanism, gs2 = "SCRAM-SHA-256", b"y,,"
    else:
        mechanism, gs2 = "SCRAM-SHA-256-PLUS", b"p=tls-server-end-point,,"
    if mode == "tampered":
        binding = bytes(32)
    nonce = base64.b64encode(os.urandom(18)).decode()
    first_bare = "n=,r=" + nonce
    first = gs2 + first_bare.encode()
    sock.sendall(message(b"p", mechanism.encode() + b"\0" + struct.pack("!I", len(first)) + first))
    kind, body = read_message(sock)
    if kind == b"E":
        print(error_text(body))
        return
    server_first = body[4:].decode()
    attrs = dict(item.split("=", 1) for item in server_first.split(","))
    salted = hashlib.pbkdf2_hmac("sha256", password.encode(), base64.b64decode(attrs["s"]), int(attrs["i"]))
    client_key = hmac.new(salted, b"Client Key", hashlib.sha256).digest()
    stored_key = hashlib.sha256(client_key).digest()
    cbind = base64.b64encode(gs2 + (binding if mechanism.endswith("PLUS") else b"")).decode()
    without_proof = "c=" + cbind + ",r=" + attrs["r"]
    auth_message = (first_bare + "," + server_first + "," + without_proof).encode()
    signature = hmac.new(stored_key, auth_message, hashlib.sha256).digest()
    proof = bytes(a ^ b for a, b in zip(client_key, signature))
    final = without_proof + ",p=" + base64.b64encode(proof).decode()
    sock.sendall(message(b"p", final.encode()))
    while True:
        kind, body = read_message(sock)
        if kind == b"E":
            print(error_text(body))
            return
        if kind == b"R" and struct.unpack("!I", body[:4])[0] == 0:
            print("ok")
            return


main()
