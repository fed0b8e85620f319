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

# Pids in the text, where strace prints one: the result of a call that
# returns a pid, a pid argument, si_pid=.  Not every number that equals a
# pid: a count may (read(3, ..., 832) = 832 beside a process 832, on a
# freshly booted machine where pids are small).
PIDRET = re.compile(r'^((?:set_tid_address|clone3?|fork|vfork|wait4|waitid|'
                    r'getpid|gettid|getpgrp|getpgid|getsid|setsid)'
                    r'\(.*\) += )(\d+)\b')
PIDARG = re.compile(r'(\b(?:wait4|kill|tkill|tgkill|getpgid|setpgid|getsid|'
                    r'pidfd_open|prlimit64|process_vm_readv|'
                    r'process_vm_writev)\(|\bptrace\(PTRACE_\w+, |'
                    r'\btgkill\(\d+, |\bwaitid\(P_PID, |\bsi_pid=)(\d+)\b')


def pid_sub(m):
    p = m.group(2)
    return m.group(1) + (pids[p] if p in pids and p != '0' else p)


def pids_named(line):
    return PIDARG.sub(pid_sub, PIDRET.sub(pid_sub, line))


# A child's SIGCHLD comes before its parent's wait4 for it when the child
# ended first (the scheduler's choice): put it after, where it comes when
# the parent waits first.
CHLD = re.compile(r'^--- SIGCHLD \{.*\bsi_pid=(\d+),')
for p in order:
    seq = procs[p]
    for i in range(len(seq) - 1):
        m = CHLD.match(seq[i])
        if m and re.match(r'^wait4\(%s, .*\) += %s$' % (m.group(1), m.group(1)),
                          seq[i + 1]):
            seq[i], seq[i + 1] = seq[i + 1], seq[i]

text = '\n'.join('%s %s' % (pidname(p), pids_named(l))
                 for p in order for l in procs[p])
text = re.sub(r'0x[0-9a-f]+', 'ADDR', text)
# What differs from run to run natively too.
text = re.sub(r'getrandom\("[^"]*"', 'getrandom("RANDOM"', text)
text = re.sub(r'getppid\(\) = \d+', 'getppid() = PPID', text)
# A child's CPU times in SIGCHLD's siginfo (clock ticks, and strace's
# comment on them): the scheduler's.
text = re.sub(r'\b(si_[us]time)=\d+( /\* [^*]* \*/)?', r'\1=T', text)
text = re.sub(r' {2,}', ' ', text)
print(text)
