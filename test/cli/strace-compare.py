#!/usr/bin/env python3
# Compare two strace-format traces (from `-f -o FILE`): per process, the
# sequence of (syscall name, return value) pairs, signals and exits.
# Prints "matched total percent".  Used by differential.sh.
import difflib
import re
import sys

LEAD = re.compile(r'^(\d+)\s+(.*)$')
PIDRET = {'rt_sigreturn', 'getpid', 'gettid', 'getppid', 'set_tid_address', 'clone',
          'clone3', 'fork', 'vfork', 'wait4', 'waitid', 'getpgrp'}


def norm_ret(name, ret):
    ret = ret.split(' <', 1)[0].strip()
    if name in PIDRET and re.match(r'^\d+$', ret):
        return 'PID'
    if re.match(r'^0x[0-9a-f]+', ret):
        return 'ADDR'
    m = re.match(r'^(-1 \w+|\?|-?\d+)', ret)
    return m.group(1) if m else ret


def parse(path):
    procs = {}
    order = []
    pending = {}
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        m = LEAD.match(line)
        if m:
            pid, rest = m.group(1), m.group(2)
        else:
            pid, rest = '0', line
        if pid not in procs:
            procs[pid] = []
            order.append(pid)
        seq = procs[pid]
        if rest.startswith('+++ '):
            seq.append(('EXIT', rest))
            continue
        if rest.startswith('--- '):
            seq.append(('SIGNAL', rest.split(' ')[1]))
            continue
        if rest.endswith('<unfinished ...>'):
            m = re.match(r'^(\w+)\(', rest)
            if m:
                pending[pid] = m.group(1)
            continue
        r = re.match(r'^<\.\.\. (\w+) resumed>.*\)\s+= (.*)$', rest)
        if r:
            seq.append((r.group(1), norm_ret(r.group(1), r.group(2))))
            pending.pop(pid, None)
            continue
        r = re.match(r'^(\w+)\(.*\)\s+= (.*)$', rest)
        if r:
            seq.append((r.group(1), norm_ret(r.group(1), r.group(2))))
    return [procs[pid] for pid in order]


def matched(x, y):
    sm = difflib.SequenceMatcher(None, x, y, autojunk=False)
    return sum(blk.size for blk in sm.get_matching_blocks()), sm


# Processes are paired, each of the first trace with the one of the second
# it matches best: which child shows up first depends on the scheduler.
a = parse(sys.argv[1])
b = parse(sys.argv[2])
total_match = 0
used = set()
pairs = []
for x in a:
    best, best_m, best_sm = None, -1, None
    for j, y in enumerate(b):
        if j in used:
            continue
        m, sm = matched(x, y)
        if m > best_m:
            best, best_m, best_sm = j, m, sm
    if best is not None:
        used.add(best)
        total_match += best_m
        pairs.append((x, b[best], best_sm))
total = max(sum(len(x) for x in a), sum(len(y) for y in b))
pct = 100.0 * total_match / total if total else 100.0
print('%d %d %.1f' % (total_match, total, pct))
if len(sys.argv) > 3:
    for x, y, sm in pairs:
        for tag, i1, i2, j1, j2 in sm.get_opcodes():
            if tag != 'equal':
                print(tag, x[i1:i2][:5], y[j1:j2][:5], file=sys.stderr)
