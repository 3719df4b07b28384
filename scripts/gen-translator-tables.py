#!/usr/bin/env python3
"""Reads the translator's mapping tables (translator/mappings/*.tsv) and writes
what is derived from them: the C++ table the translator compiles in
(--inc FILE), and the coverage page docs/translate-coverage.md (--docs FILE,
or --check-docs FILE to fail when the checked-in page is out of date).

Every row is validated first; a malformed row is an error naming the file and
line, so a table mistake stops the build instead of reaching users. The
checks include the one that keeps translation idempotent: no HIP name of a
row may be the CUDA name of another row with a different translation, or
translating twice would rewrite it again.
"""
import argparse
import collections
import glob
import os
import re
import sys

KINDS = ("function", "type", "enumerator", "macro", "device", "namespace",
         "header")
STATUSES = ("supported", "unsupported")
COLUMNS = ("cuda", "hip", "kind", "status", "since", "compat", "note")
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# A HIP name may be qualified (a compat definition in cuhip's namespace).
QUALIFIED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*$")
HEADER = re.compile(r"^[A-Za-z0-9_./+-]+$")
VERSION = re.compile(r"^(\d+)\.(\d+)$")

# version_code() of "never": no HIP release has the name (Mapping.h's
# NeverSince), so its compat snippet is always inserted.
NEVER = 9999

Row = collections.namedtuple("Row", COLUMNS + ("family", "file", "line"))


class TableError(Exception):
    pass


def read_tables(directory, compat_dir):
    rows = []
    errors = []
    for path in sorted(glob.glob(os.path.join(directory, "*.tsv"))):
        family = os.path.splitext(os.path.basename(path))[0]
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        header_seen = False
        for number, text in enumerate(lines, 1):
            if not text.strip() or text.startswith("#"):
                continue
            cells = text.split("\t")
            where = "%s:%d" % (path, number)
            if not header_seen:
                if tuple(cells) != COLUMNS:
                    errors.append("%s: the first row must be the column names "
                                  "%s" % (where, "\\t".join(COLUMNS)))
                header_seen = True
                continue
            if len(cells) != len(COLUMNS):
                errors.append("%s: %d cells, expected %d (tab-separated)"
                              % (where, len(cells), len(COLUMNS)))
                continue
            r = Row(*[c.strip() for c in cells], family=family, file=path,
                    line=number)
            pattern = HEADER if r.kind == "header" else IDENT
            if not pattern.match(r.cuda):
                errors.append("%s: '%s' is not a valid CUDA name" % (where, r.cuda))
            if r.kind not in KINDS:
                errors.append("%s: kind '%s' is not one of %s"
                              % (where, r.kind, ", ".join(KINDS)))
            if r.status not in STATUSES:
                errors.append("%s: status '%s' is not one of %s"
                              % (where, r.status, ", ".join(STATUSES)))
            if r.status == "supported" and r.hip == "-" and r.kind != "header":
                errors.append("%s: a supported row needs a HIP name" % where)
            hip_pattern = HEADER if r.kind == "header" else QUALIFIED
            if r.hip != "-" and not hip_pattern.match(r.hip):
                errors.append("%s: '%s' is not a valid HIP name" % (where, r.hip))
            if r.status == "unsupported" and r.note == "-":
                errors.append("%s: an unsupported row needs a note saying why"
                              % where)
            if r.since not in ("-", "never") and not VERSION.match(r.since):
                errors.append("%s: since '%s' is not X.Y, - or never"
                              % (where, r.since))
            if r.since == "never" and r.compat == "-":
                errors.append("%s: a name no HIP has (since never) needs a "
                              "compat snippet, or status unsupported" % where)
            if r.compat != "-":
                if not os.path.exists(os.path.join(compat_dir, r.compat + ".h")):
                    errors.append("%s: no compat snippet %s.h in %s"
                                  % (where, r.compat, compat_dir))
                # An unsupported row's snippet defines the CUDA name itself
                # (no HIP version has it); a supported row's stands in for
                # the HIP name in versions before `since`.
                if r.since == "-" and r.status == "supported":
                    errors.append("%s: a compat snippet needs the HIP version "
                                  "it stands in for (since)" % where)
                if r.status == "unsupported" and r.hip != r.cuda:
                    errors.append("%s: an unsupported row with a compat "
                                  "snippet keeps its CUDA name (hip = cuda)"
                                  % where)
            rows.append(r)
        if not header_seen:
            errors.append("%s: no column header row" % path)

    by_name = {}
    for r in rows:
        key = (r.cuda, r.kind == "header")
        if key in by_name:
            o = by_name[key]
            errors.append("%s:%d: '%s' is already mapped at %s:%d"
                          % (r.file, r.line, r.cuda, o.file, o.line))
        else:
            by_name[key] = r
    for r in rows:
        if r.hip == "-" or r.hip == r.cuda:
            continue
        other = by_name.get((r.hip, r.kind == "header"))
        if other and other.hip != r.hip:
            errors.append("%s:%d: HIP name '%s' is itself mapped (to '%s' at "
                          "%s:%d): translating twice would change it again"
                          % (r.file, r.line, r.hip, other.hip, other.file,
                             other.line))
    if errors:
        raise TableError("\n".join(errors))
    return rows


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def version_code(v):
    if v == "-":
        return 0
    if v == "never":
        return NEVER
    major, minor = VERSION.match(v).groups()
    return int(major) * 100 + int(minor)


def write_inc(rows, path):
    out = ["// Generated by scripts/gen-translator-tables.py from "
           "translator/mappings/*.tsv. Do not edit.",
           "// CUHIP_MAPPING(cuda, hip, kind, status, since (major*100+minor, "
           "0 = any), compat, family, note)"]
    for r in sorted(rows, key=lambda r: (r.kind == "header", r.cuda)):
        out.append("CUHIP_MAPPING(%s, %s, %s, %s, %d, %s, %s, %s)" % (
            c_string(r.cuda), c_string("" if r.hip == "-" else r.hip),
            r.kind.capitalize(), r.status.capitalize(), version_code(r.since),
            c_string("" if r.compat == "-" else r.compat), c_string(r.family),
            c_string("" if r.note == "-" else r.note)))
    text = "\n".join(out) + "\n"
    write_if_changed(path, text)


def write_compat_inc(compat_dir, path):
    out = ["// Generated by scripts/gen-translator-tables.py from "
           "translator/compat/*.h. Do not edit."]
    for snippet in sorted(glob.glob(os.path.join(compat_dir, "*.h"))):
        name = os.path.splitext(os.path.basename(snippet))[0]
        with open(snippet, encoding="utf-8") as f:
            text = f.read()
        if ')cuhip"' in text:
            raise TableError("%s: contains the raw-string delimiter )cuhip\""
                             % snippet)
        out.append('CUHIP_COMPAT("%s", R"cuhip(%s)cuhip")' % (name, text))
    write_if_changed(path, "\n".join(out) + "\n")


def family_descriptions(directory):
    """The leading '#' comment of each table: what the family covers."""
    out = {}
    for path in sorted(glob.glob(os.path.join(directory, "*.tsv"))):
        family = os.path.splitext(os.path.basename(path))[0]
        text = []
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.startswith("#"):
                    break
                text.append(line[1:].strip())
        out[family] = " ".join(t for t in text if t)
    return out


# The summary groups the families: the CUDA toolkit's own APIs first, then
# the libraries, each with the HIP library its names become.
CORE_FAMILIES = ("runtime", "driver", "types", "device", "headers")
LIBRARY_TARGETS = collections.OrderedDict([
    ("cublas", "hipBLAS"), ("cublasLt", "hipBLASLt"), ("curand", "hipRAND"),
    ("cufft", "hipFFT"), ("cusparse", "hipSPARSE"), ("cusolver", "hipSOLVER"),
    ("cudnn", "MIOpen"), ("cub", "hipCUB"), ("thrust", "rocThrust"),
    ("nccl", "RCCL")])


# The functions cuhip's own libcublas/libcublasLt export, as
# scripts/check-blas-mappings.py records them from the built libraries: the
# coverage page shows, for each cuBLAS/cuBLASLt row, whether the drop-in
# implements it.
DROP_IN_FAMILIES = ("cublas", "cublasLt")


def read_drop_in_exports(path):
    out = {}
    if not os.path.exists(path):
        return out
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cells = line.rstrip("\n").split("\t")
            if cells[0] != "function":
                out[cells[0]] = cells[2]
    return out


def drop_in_cell(row, exports):
    if row.kind != "function":
        return "-"
    return {"implemented": "implemented",
            "stub": "exported, answers NOT_SUPPORTED"}.get(exports.get(row.cuda), "no")


def docs_text(rows, descriptions, exports=None):
    exports = exports or {}
    families = collections.OrderedDict()
    for r in sorted(rows, key=lambda r: (r.family.lower(), r.kind, r.cuda)):
        families.setdefault(r.family, []).append(r)
    lines = ["# Translator coverage", "",
             "Generated by `scripts/gen-translator-tables.py` from "
             "`translator/mappings/*.tsv`, the same rows `cuhip translate` "
             "uses (regenerate with `ninja translate-docs`; the test "
             "`translate.coverage_docs` fails when this page is out of "
             "date). *since* is the first HIP release with the HIP name "
             "(the ROCm libraries are versioned with ROCm, so for a library "
             "it is the ROCm release that ships it); *compat* names the "
             "definition `cuhip translate` adds to a translated file when "
             "the target HIP is older than that. An unsupported name is "
             "reported with the note as its reason; a name with a *since* "
             "newer than the target HIP is renamed and reported.", ""]

    def summary(title, names, with_target):
        head = "| family | %srows | supported | unsupported | need HIP newer than 5.2 |" % (
            "HIP library | " if with_target else "")
        out = ["## %s" % title, "", head,
               "| --- | " + ("--- | " if with_target else "") +
               "--- | --- | --- | --- |"]
        total = [0, 0, 0, 0]
        for family in names:
            rs = families[family]
            supported = sum(r.status == "supported" for r in rs)
            newer = sum(r.status == "supported" and r.since != "-" and
                        version_code(r.since) > 502 for r in rs)
            counts = [len(rs), supported, len(rs) - supported, newer]
            total = [a + b for a, b in zip(total, counts)]
            target = (LIBRARY_TARGETS.get(family, "-") + " | "
                      if with_target else "")
            out.append("| [%s](#%s) | %s%d | %d | %d | %d |"
                       % ((family, family.lower(), target) + tuple(counts)))
        out.append("| **all** | %s%d | %d | %d | %d |"
                   % (("| " if with_target else "",) + tuple(total)))
        return out + [""]

    core = [f for f in families if f in CORE_FAMILIES]
    libraries = [f for f in LIBRARY_TARGETS if f in families]
    other = [f for f in families if f not in core and f not in libraries]
    if core:
        lines += summary("CUDA toolkit APIs", core, False)
    if libraries:
        lines += summary("Libraries", libraries, True)
    if other:
        lines += summary("Other families", other, False)
    for family in core + libraries + other:
        rs = families[family]
        lines += ["## %s" % family, ""]
        if descriptions.get(family):
            lines += [descriptions[family], ""]
        drop_in = family in DROP_IN_FAMILIES and exports
        if drop_in:
            lines += ["*cuhip drop-in* says whether cuhip's own lib%s (the "
                      "drop-in that runs unmodified programs) implements the "
                      "function (`scripts/check-blas-mappings.py` checks "
                      "that every function it implements has a row here)."
                      % family, ""]
        lines += ["| CUDA | HIP | kind | status | since | compat | note |"
                  + (" cuhip drop-in |" if drop_in else ""),
                  "| --- | --- | --- | --- | --- | --- | --- |"
                  + (" --- |" if drop_in else "")]
        for r in rs:
            values = (r.cuda, r.hip, r.kind, r.status, r.since, r.compat, r.note)
            if drop_in:
                values += (drop_in_cell(r, exports),)
            cells = [("`%s`" % c) if c != "-" and i < 2 else c
                     for i, c in enumerate(values)]
            lines.append("| " + " | ".join(c.replace("|", "\\|")
                                            for c in cells) + " |")
        lines.append("")
    return "\n".join(lines[:-1]) + "\n"


def write_if_changed(path, text):
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", default=os.path.join(root, "translator", "mappings"))
    ap.add_argument("--compat", default=os.path.join(root, "translator", "compat"))
    ap.add_argument("--inc")
    ap.add_argument("--compat-inc")
    ap.add_argument("--docs")
    ap.add_argument("--check-docs")
    ap.add_argument("--drop-in-exports",
                    default=os.path.join(root, "libcublas", "drop-in-exports.tsv"))
    opts = ap.parse_args()
    try:
        rows = read_tables(opts.tables, opts.compat)
    except TableError as e:
        print(e, file=sys.stderr)
        return 1
    if opts.inc:
        write_inc(rows, opts.inc)
    if opts.compat_inc:
        try:
            write_compat_inc(opts.compat, opts.compat_inc)
        except TableError as e:
            print(e, file=sys.stderr)
            return 1
    descriptions = family_descriptions(opts.tables)
    exports = read_drop_in_exports(opts.drop_in_exports)
    if opts.docs:
        write_if_changed(opts.docs, docs_text(rows, descriptions, exports))
    if opts.check_docs:
        with open(opts.check_docs, encoding="utf-8") as f:
            if f.read() != docs_text(rows, descriptions, exports):
                print("%s is out of date: run scripts/gen-translator-tables.py "
                      "--docs %s" % (opts.check_docs, opts.check_docs),
                      file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
