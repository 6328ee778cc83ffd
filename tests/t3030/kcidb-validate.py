#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""kcidb-validate.py SCHEMA FILE - a KCIDB file against the test's schema

Validates FILE with python3-jsonschema (draft 2020-12) against SCHEMA,
then what a schema cannot say: ids are unique, every build's checkout and
every test's build is in the file, and no value anywhere is null. Prints
each problem and exits 1 when there is one.
"""
import json
import sys

import jsonschema


def nulls(v, path='$'):
    if v is None:
        yield path
    elif isinstance(v, dict):
        for k, x in v.items():
            yield from nulls(x, '%s.%s' % (path, k))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from nulls(x, '%s[%d]' % (path, i))


def main(schema_path, path):
    schema = json.load(open(schema_path))
    data = json.load(open(path))
    problems = []
    v = jsonschema.Draft202012Validator(schema)
    for e in v.iter_errors(data):
        problems.append('%s: %s' % ('/'.join(map(str, e.absolute_path)) or '$',
                                    e.message))
    problems += ['%s is null' % p for p in nulls(data)]
    ids = {}
    for kind in ('checkouts', 'builds', 'tests'):
        seen = [o.get('id') for o in data.get(kind, []) if isinstance(o, dict)]
        if len(seen) != len(set(seen)):
            problems.append('%s: ids not unique' % kind)
        ids[kind] = set(seen)
    for b in data.get('builds', []):
        if isinstance(b, dict) and b.get('checkout_id') not in ids['checkouts']:
            problems.append('build %s: checkout %s not in the file'
                            % (b.get('id'), b.get('checkout_id')))
    for t in data.get('tests', []):
        if isinstance(t, dict) and t.get('build_id') not in ids['builds']:
            problems.append('test %s: build %s not in the file'
                            % (t.get('id'), t.get('build_id')))
    for p in problems:
        print('%s: %s' % (path, p))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(*sys.argv[1:]))
