#!/usr/bin/env python3
# tp-count.py LOG EXPECT: does the trace LOG (utrace/strace -f -o LOG) hold
# the lines the transparency program wrote down in EXPECT ("COUNT<TAB>REGEX"
# lines, see test/progs/tp_common.h)?  Each process's <unfinished ...> call
# is joined with its resumption (strace-lines.py's joined()), a call never
# resumed counts as "CALL <unfinished ...>", the spaces before " = " are
# squeezed, and REGEX must match a whole line.  Prints one line per
# expectation; exits 1 if a count differs or EXPECT is empty.
import importlib.util
import os
import re
import sys

spec = importlib.util.spec_from_file_location(
    'strace_lines', os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                 'strace-lines.py'))
sl = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sl)

order, procs, pending = sl.joined(sys.argv[1])
lines = []
for pid in order:
    lines += procs[pid]
    if pid in pending:
        lines.append(pending[pid] + ' <unfinished ...>')
lines = [re.sub(r' +(= )', r' \1', x) for x in lines]

bad = 0
try:
    text = open(sys.argv[2]).read()
except FileNotFoundError:
    text = ''
want = [x.split('\t', 1) for x in text.splitlines() if x]
for n, rx in want:
    c = re.compile(rx)
    got = sum(1 for x in lines if c.fullmatch(x))
    ok = got == int(n)
    bad += not ok
    print('%s: %s lines, %d in the trace: %s' %
          ('ok' if ok else 'WRONG', n, got, rx))
if not want:
    print('WRONG: the program wrote no expectation')
    bad += 1
sys.exit(1 if bad else 0)
