#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Packs fiqmon's output texts (docs/architecture.md, "Packed texts").

    strpack.py OUTDIR SOURCE.c...

Writes OUTDIR/SOURCE.c for every source, with its output literals packed, and
OUTDIR/text_tokens.c, the table that monitor/util/text.c expands them with. A file is
rewritten only when its content changes, so make recompiles only what changed.

Which literals: the format of con_printf, con_error and fmt_snprintf, the argument of
con_puts, and any literal wrapped in TEXT() (console.h): texts that only ever reach the
port through the formatter or con_puts, which expand them. Nothing else is touched:
command names, strcmp arguments and %s arguments stay plain, so bytes >= 0x80 that come
from the kernel or the user are never taken for tokens.

How: byte-pair encoding. Byte 0x80 + i stands for the pair text_tokens[i], each half a
plain byte or an earlier token; the commonest pair in all packed texts becomes the next
token while a token saves more than its two table bytes, up to 128 tokens and a nesting
depth of TEXT_DEPTH. '%' conversions are never split nor joined with text. Ties go to the
smaller pair, so the output is a function of the sources alone."""

import os
import re
import sys

TEXT_DEPTH = 12          # monitor/util/text.h: the expander's stack
MAX_TOKENS = 128
CALLS = {"con_printf": 0, "con_error": 0, "con_puts": 0, "fmt_snprintf": 2, "TEXT": 0}

LEXER = re.compile(r'''
    (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<pp>^[ \t]*\#(?:[^\n\\]|\\.)*)
  | (?P<string>"(?:\\.|[^"\\\n])*")
  | (?P<char>'(?:\\.|[^'\\\n])*')
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<space>\s+)
  | (?P<other>.)''', re.S | re.M | re.X)

ESCAPES = {"n": 10, "r": 13, "t": 9, "\\": 92, '"': 34, "'": 39, "a": 7, "b": 8, "f": 12,
           "v": 11, "?": 63, "e": 27}


def unescape(lit):
    """The bytes of one C string literal, or None for what the packer leaves alone."""
    body, out, i = lit[1:-1], [], 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(ord(c))
            i += 1
            continue
        n = body[i + 1]
        if n in ESCAPES:
            out.append(ESCAPES[n])
            i += 2
        elif n == "x":
            m = re.match(r"[0-9a-fA-F]+", body[i + 2:])
            out.append(int(m.group(0), 16))
            i += 2 + len(m.group(0))
        elif n in "01234567":
            m = re.match(r"[0-7]{1,3}", body[i + 1:])
            out.append(int(m.group(0), 8))
            i += 1 + len(m.group(0))
        else:
            return None
    if any(b == 0 or b >= 0x80 for b in out):
        return None
    return out


def escape(symbols):
    out = []
    for b in symbols:
        if b >= 0x80 or b < 0x20 or b == 0x7f:
            named = {10: "\\n", 13: "\\r", 9: "\\t"}.get(b)
            out.append(named or "\\%03o" % b)   # octal: never swallows a following digit
        elif chr(b) in '"\\':
            out.append("\\" + chr(b))
        else:
            out.append(chr(b))
    return '"' + "".join(out) + '"'


def runs(symbols, is_format):
    """Split into runs that may be packed; a '%' conversion is a run of its own, kept (in
    any text, so that no token holds a '%' and every token may go into a format)."""
    out, text, i = [], [], 0
    while i < len(symbols):
        if symbols[i] == ord("%"):
            m = re.match(rb"%[-0]*[0-9]*l?.?" if is_format else rb"%", bytes(symbols[i:]))
            if text:
                out.append((True, text))
                text = []
            out.append((False, list(m.group(0))))
            i += len(m.group(0))
        else:
            text.append(symbols[i])
            i += 1
    if text:
        out.append((True, text))
    return out


def find_literals(tokens):
    """(first, last, is_format) token spans of the literals to pack."""
    found = []
    for i, (kind, text) in enumerate(tokens):
        if kind != "ident" or text not in CALLS:
            continue
        j = i + 1
        while j < len(tokens) and tokens[j][0] in ("space", "comment"):
            j += 1
        if j >= len(tokens) or tokens[j][1] != "(":
            continue
        # skip to the wanted argument: count top-level commas
        arg, depth, j = CALLS[text], 0, j + 1
        while arg and j < len(tokens):
            t = tokens[j][1]
            if t in "([{":
                depth += 1
            elif t in ")]}":
                depth -= 1
            elif t == "," and depth == 0:
                arg -= 1
            j += 1
        first = last = None
        while j < len(tokens):
            kind2, t = tokens[j]
            if kind2 == "string":
                first = j if first is None else first
                last = j
            elif kind2 not in ("space", "comment"):
                break
            j += 1
        if first is not None and tokens[j][1] in ",)":
            found.append((first, last, text != "TEXT" and text != "con_puts"))
    return found


def lex(src):
    return [(m.lastgroup, m.group(0)) for m in LEXER.finditer(src)]


def bpe(texts):
    """texts: lists of runs. Returns the token table [(a, b)], packing texts in place."""
    table, depth = [], {}
    while len(table) < MAX_TOKENS:
        counts = {}
        for runs_ in texts:
            for packable, syms in runs_:
                if not packable:
                    continue
                prev = None
                for k in range(len(syms) - 1):
                    pair = (syms[k], syms[k + 1])
                    if pair == prev:        # "aaa": one pair, not two
                        prev = None
                        continue
                    counts[pair] = counts.get(pair, 0) + 1
                    prev = pair
        best = None
        for pair, n in sorted(counts.items()):
            d = 1 + max(depth.get(pair[0], 0), depth.get(pair[1], 0))
            if d <= TEXT_DEPTH and (best is None or n > best[1]):
                best = (pair, n, d)
        if best is None or best[1] <= 2:    # a token must save more than its table entry
            break
        pair, _, d = best
        tok = 0x80 + len(table)
        table.append(pair)
        depth[tok] = d
        for runs_ in texts:
            for packable, syms in runs_:
                if not packable:
                    continue
                k, out = 0, []
                while k < len(syms):
                    if k + 1 < len(syms) and (syms[k], syms[k + 1]) == pair:
                        out.append(tok)
                        k += 2
                    else:
                        out.append(syms[k])
                        k += 1
                syms[:] = out
    return table


def write_if_changed(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def main(outdir, sources):
    files, texts = [], {}
    for path in sources:
        with open(path) as f:
            tokens = lex(f.read())
        spans = []
        for first, last, is_format in find_literals(tokens):
            parts = [unescape(tokens[k][1]) for k in range(first, last + 1)
                     if tokens[k][0] == "string"]
            if any(p is None for p in parts):
                continue
            symbols = [b for p in parts for b in p]
            # the same text in several places packs the same way (and the linker merges it)
            key = (bytes(symbols), is_format)
            texts.setdefault(key, runs(symbols, is_format))
            spans.append((first, last, key))
        files.append((path, tokens, spans))
    table = bpe(list(texts.values()))
    for path, tokens, spans in files:
        for first, last, key in reversed(spans):
            packed = [b for _, syms in texts[key] for b in syms]
            tokens[first:last + 1] = [("string", escape(packed))]
        write_if_changed(os.path.join(outdir, path), "".join(t for _, t in tokens))
    rows = "".join("    {%d, %d}, /* %r */\n" % (a, b, expand(table, 0x80 + i))
                   for i, (a, b) in enumerate(table))
    write_if_changed(os.path.join(outdir, "text_tokens.c"),
                     "/* Generated by scripts/strpack.py: the pairs that packed texts' bytes\n"
                     " * 0x80 and up stand for (monitor/util/text.h). */\n"
                     '#include "text.h"\n\n'
                     "const unsigned char text_tokens[][2] = {\n" + (rows or "    {0, 0},\n") +
                     "};\nconst unsigned text_token_count = %d;\n" % len(table))


def expand(table, sym):
    if sym < 0x80:
        return chr(sym)
    a, b = table[sym - 0x80]
    return (expand(table, a) + expand(table, b)).replace("*/", "*\\/")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
