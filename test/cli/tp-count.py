#!/usr/bin/env python3
# tp-count.py LOG EXPECT: does the trace LOG (utrace/strace -f -o LOG) hold
# the lines the transparency program wrote down in EXPECT ("COUNT<TAB>REGEX"
# lines, see test/progs/tp_common.h)?  Each process's <unfinished ...> call
# is joined with its resumption (strace-lines.py's joined()), a call never
# resumed counts as "CALL <unfinished ...>", the spaces before " = " are
# squeezed, and REGEX must match a whole line.  Prints one line per
# expectation; exits 1 if a count differs or EXPECT is empty.
#
# tp-count.py --same LOG1 LOG2 EXPECT: are two traces of the program the
# same, line for line, process by process, once what differs from run to
# run is masked (strace-lines.py's norm: pids, addresses, times) and the
# lines that EXPECT says may vary (COUNT -1) are left out?  Prints "matched
# total percent" and the lines that differ; exits 1 unless all match.
import importlib.util
import os
import re
import sys

spec = importlib.util.spec_from_file_location(
    'strace_lines', os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                 'strace-lines.py'))
sl = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sl)


def squeeze(x):
    return re.sub(r' +(= )', r' \1', x)


def expectations(path):
    try:
        text = open(path).read()
    except FileNotFoundError:
        text = ''
    return [(int(n), re.compile(rx), rx) for n, rx in
            (x.split('\t', 1) for x in text.splitlines() if x)]


def processes(path, vary):
    """The trace's lines per process, normalised, without varying ones."""
    order, procs, pending = sl.joined(path)
    pids = set(order)
    out = []
    for pid in order:
        lines = procs[pid] + ([pending[pid] + ' <unfinished ...>']
                              if pid in pending else [])
        out.append([sl.norm(squeeze(x), pids) for x in lines
                    if not any(c.fullmatch(squeeze(x)) for c in vary)])
    return out


def same(log1, log2, exp):
    vary = [c for n, c, _ in expectations(exp) if n < 0]
    matched, total, diffs = sl.compare(processes(log1, vary),
                                       processes(log2, vary))
    print('%d %d %.1f' % (matched, total,
                          100.0 * matched / total if total else 100.0))
    for d in diffs[:40]:
        print(d)
    return 0 if matched == total and total else 1


def count(log, exp):
    order, procs, pending = sl.joined(log)
    lines = []
    for pid in order:
        lines += procs[pid]
        if pid in pending:
            lines.append(pending[pid] + ' <unfinished ...>')
    lines = [squeeze(x) for x in lines]
    want = [x for x in expectations(exp) if x[0] >= 0]
    bad = 0
    for n, c, rx in want:
        got = sum(1 for x in lines if c.fullmatch(x))
        bad += got != n
        print('%s: %d lines, %d in the trace: %s' %
              ('ok' if got == n else 'WRONG', n, got, rx))
    if not want:
        print('WRONG: the program wrote no expectation')
        bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    if sys.argv[1] == '--same':
        sys.exit(same(*sys.argv[2:5]))
    sys.exit(count(*sys.argv[1:3]))
