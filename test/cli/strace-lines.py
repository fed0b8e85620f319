#!/usr/bin/env python3
# Compare two strace-format traces (from `-f -o FILE`) line by line: each
# process's lines (an <unfinished ...> call joined with its resumption),
# with what differs from run to run masked: pids, addresses, inodes,
# ports, times, random bytes, the kernel's counters.  Processes are paired
# as in strace-compare.py.  Prints "matched total percent", then (with a
# third argument) the lines that differ, "-" from the first trace and "+"
# from the second, on stderr.
import difflib
import re
import sys

LEAD = re.compile(r'^(\d+)\s+(.*)$')
MASKS = [
    (re.compile(r'^getrandom\("[^"]*"'), 'getrandom(RND'),
    (re.compile(r'0x[0-9a-f]{7,}'), 'ADDR'),
    (re.compile(r'(pipe|socket|[A-Z0-9-]+):\[[0-9]+'), r'\1:[INO'),
    (re.compile(r'(->|,)[0-9]{5,}\]'), r'\1INO]'),
    (re.compile(r'htons\(\d+\)'), 'htons(PORT)'),
    (re.compile(r'tv_(nsec|usec)=\d+'), r'tv_\1=N'),
    (re.compile(r'tv_sec=\d{4,}'), 'tv_sec=S'),
    (re.compile(r'(ru_\w+|si_utime|si_stime|f_bfree|f_bavail|f_ffree|'
                r'uptime|freeram|bufferram|sharedram|procs|nlmsg_seq|'
                r'st_ino|st_[amc]time(_nsec)?|cstamp|tstamp|'
                r'[rt]x_\w+|multicast|idiag_inode|idiag_uid)=\d+'
                r'( /\* [^*]* \*/)?'), r'\1=N'),
    (re.compile(r'loads=\[[^]]*\]'), 'loads=N'),
    (re.compile(r'^(getppid\(\)) += \d+'), r'\1 = PPID'),
    (re.compile(r'\) +='), ') ='),
    (re.compile(r' <\d+\.\d+>$'), ' <T>'),
]


def norm(line, pids):
    for rx, rep in MASKS:
        line = rx.sub(rep, line)
    return re.sub(r'\b\d+\b',
                  lambda m: 'PID' if m.group(0) in pids else m.group(0), line)


def joined(path):
    """Each process's lines, raw: (pids in order of appearance, {pid: [line]},
    {pid: the call left <unfinished ...>, never resumed}).  A call resumes
    the unfinished one of its own name only (after an execve by another
    thread, the execve's resumption comes under the leader's pid, after
    "+++ superseded by execve in pid TID +++")."""
    order, procs, pending = [], {}, {}
    for line in open(path, errors='replace').read().split('\n'):
        if not line:
            continue
        m = LEAD.match(line)
        pid, rest = (m.group(1), m.group(2)) if m else ('0', line)
        if pid not in procs:
            procs[pid] = []
            order.append(pid)
        if rest.endswith(' <unfinished ...>'):
            pending[pid] = rest[:-len(' <unfinished ...>')]
            continue
        x = re.match(r'^\+\+\+ superseded by execve in pid (\d+) \+\+\+$', rest)
        if x and x.group(1) in pending:
            # The execve of thread x resumes under this pid, the leader's.
            pending[pid] = pending.pop(x.group(1))
        r = re.match(r'^<\.\.\. (\w+) resumed>(.*)$', rest)
        if r:
            head = r.group(1) + '('
            if pending.get(pid, '').startswith(head):
                head = pending.pop(pid)
            rest = head + r.group(2)
        procs[pid].append(rest)
    return order, procs, pending


def parse(path):
    order, procs, _ = joined(path)
    pids = set(order)
    return [[norm(x, pids) for x in procs[p]] for p in order]


def compare(a, b):
    """Pair the processes of a and b (lists of per-process line lists) by
    the most lines in common; (lines matched, lines in all, the differing
    lines as '- ' from a and '+ ' from b)."""
    used = set()
    total_match = 0
    diffs = []
    for x in a:
        best, best_m, best_sm = None, -1, None
        for j, y in enumerate(b):
            if j in used:
                continue
            sm = difflib.SequenceMatcher(None, x, y, autojunk=False)
            m = sum(blk.size for blk in sm.get_matching_blocks())
            if m > best_m:
                best, best_m, best_sm = j, m, sm
        if best is None:
            continue
        used.add(best)
        total_match += best_m
        for tag, i1, i2, j1, j2 in best_sm.get_opcodes():
            if tag != 'equal':
                diffs += ['- ' + s[:300] for s in x[i1:i2]]
                diffs += ['+ ' + s[:300] for s in b[best][j1:j2]]
    total = max(sum(map(len, a)), sum(map(len, b)))
    return total_match, total, diffs


def main():
    a = parse(sys.argv[1])
    b = parse(sys.argv[2])
    total_match, total, diffs = compare(a, b)
    print('%d %d %.1f' % (total_match, total,
                          100.0 * total_match / total if total else 100.0))
    if len(sys.argv) > 3:
        for d in diffs[:int(sys.argv[3])]:
            print(d, file=sys.stderr)

if __name__ == '__main__':
    main()
