#!/usr/bin/env python3
# Normalise an strace -f log for comparison (test/cli/ptrace.sh): lines
# grouped per process in order of first appearance, "<unfinished ...>" and
# "<... resumed>" joined, pids renamed P1, P2... in order of appearance,
# hexadecimal addresses replaced by ADDR, random bytes and the parent's pid
# masked.
import re
import sys

LEAD = re.compile(r'^(\d+)\s+(.*)$')
procs, order, pend = {}, [], {}
pids = {}


def pidname(p):
    if p not in pids:
        pids[p] = 'P%d' % (len(pids) + 1)
    return pids[p]


for line in open(sys.argv[1], errors='replace'):
    line = line.rstrip('\n')
    m = LEAD.match(line)
    pid, rest = (m.group(1), m.group(2)) if m else ('0', line)
    pidname(pid)
    if pid not in procs:
        procs[pid] = []
        order.append(pid)
    if rest.endswith(' <unfinished ...>'):
        pend[pid] = rest[:-len(' <unfinished ...>')]
        continue
    r = re.match(r'^<\.\.\. \w+ resumed>(.*)$', rest)
    if r and pid in pend:
        rest = pend.pop(pid) + r.group(1)
    procs[pid].append(rest)

text = '\n'.join('%s %s' % (pidname(p), l) for p in order for l in procs[p])
# Pids anywhere in the text (clone results, wait4 arguments, si_pid=...).
for p in sorted(pids, key=len, reverse=True):
    if p != '0':
        text = re.sub(r'\b%s\b' % p, pids[p], text)
text = re.sub(r'0x[0-9a-f]+', 'ADDR', text)
# What differs from run to run natively too.
text = re.sub(r'getrandom\("[^"]*"', 'getrandom("RANDOM"', text)
text = re.sub(r'getppid\(\) = \d+', 'getppid() = PPID', text)
text = re.sub(r' {2,}', ' ', text)
print(text)
