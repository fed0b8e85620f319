#!/bin/sh
# --json: every record of real traces validates against the versioned
# schema (docs/utrace-json.schema.json) with python3-jsonschema, and the
# values are structured: numbers, names of flags, structures, strings,
# -y's decorations, -e read=/write= dumps, injected results; and the
# same records from in-process records as with --stops-only.
O=${O:-build}
case $O in /*) ;; *) O=$(pwd)/$O ;; esac
U=$O/utrace
schema=$(cd "$(dirname "$0")/../../docs" && pwd)/utrace-json.schema.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! python3 -c 'import jsonschema' 2>/dev/null; then
	echo "ok - --json # SKIP python3-jsonschema not installed (scripts/deps installs it)"
	exit 0
fi
ln -s "$O/test/progs/cli_basic" "$tmp/prog"
ln -s "$O/test/progs/cli_decode" "$tmp/dec"
cd "$tmp" || exit 1

# Traces of many kinds, into one file per run.
"$U" --json -o basic.json ./prog >/dev/null 2>&1
"$U" --json -f -e read=all -e write=all -o pipe.json \
	sh -c 'echo hello | cat' >/dev/null 2>&1
"$U" --json -yy -Y -o dec.json ./dec term fcntl cpu sigaction select \
	poll statfs misc prctl sockopt msg time siginfo clone strs fixes \
	widths osync sigio inject hex unknown realprogs netlink twins pids \
	>/dev/null 2>&1
"$U" --json -f -e inject=chdir:error=EACCES -o inj.json \
	sh -c 'cd /; kill -9 $$' >/dev/null 2>&1

python3 - "$schema" basic.json pipe.json dec.json inj.json <<'PY'
import json, sys
import jsonschema

schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
v = jsonschema.Draft7Validator(schema)
recs = {}
bad = 0
for f in sys.argv[2:]:
    lines = open(f).read().splitlines()
    recs[f] = [json.loads(l) for l in lines]
    for n, r in enumerate(recs[f]):
        errs = list(v.iter_errors(r))
        if errs:
            bad += 1
            if bad <= 5:
                print("# %s:%d: %s" % (f, n + 1, errs[0].message[:300]))
total = sum(len(r) for r in recs.values())
print(("ok" if not bad else "not ok") +
      " - %d records of 4 traces: %d do not validate" % (total, bad))

def ok(cond, what):
    print(("ok" if cond else "not ok") + " - " + what)

first = [r[0] for r in recs.values()]
ok(all(h == {"type": "header", "schema": "utrace-json", "version": 1,
             "utrace": h.get("utrace")} for h in first),
   "each output begins with the header: schema utrace-json, version 1")

sc = [r for f in recs for r in recs[f] if r["type"] == "syscall"]
args = [a for r in sc for a in r["args"]]
valued = [a for a in args if "value" in a]
print("# %d of %d arguments have a value (%.1f%%)" %
      (len(valued), len(args), 100.0 * len(valued) / len(args)))
ok(len(valued) >= 0.98 * len(args), "98% of the arguments have a value")

def find(f, name, pred=lambda r: True):
    return [r for r in recs[f] if r["type"] == "syscall" and
            r["syscall"] == name and pred(r)]

cl = find("pipe.json", "clone")
ok(cl and cl[0]["args"][0]["value"] == {"name": "child_stack",
                                         "value": None},
   "clone: arguments strace names")
o = find("basic.json", "openat",
         lambda r: r["args"][1]["value"] == {"string": "/dev/null"})
ok(o and o[0]["args"][0]["value"] == {"names": ["AT_FDCWD"]} and
   o[0]["args"][2]["value"] == {"names": ["O_WRONLY", "O_CLOEXEC"]} and
   o[0]["retval"] == 3, "openat: names of flags, a string, the result")
s = find("basic.json", "newfstatat")
ok(s and s[-1]["args"][2]["value"]["struct"]["st_mode"]["names"][0] ==
   "S_IFCHR" and s[-1]["args"][2]["value"].get("more") is True,
   "newfstatat: a structure, its mode's names, abbreviated")
w = find("basic.json", "write", lambda r: r["args"][0]["value"] == 3)
ok(w and w[0]["args"][1]["value"]["truncated"] is True and
   w[0]["args"][1]["value"]["hex"].startswith("68656c6c6f"),
   "write: bytes not UTF-8 as hex, cut at -s")
d = [r for r in find("pipe.json", "write") if "dumps" in r]
ok(d and d[0]["dumps"] == [{"fd": 1, "direction": "write",
                            "hex": "68656c6c6f0a", "length": 6}],
   "-e write=all: the data written, as dumps")
rd = [r for r in find("pipe.json", "read") if "dumps" in r and
      r["args"][0]["value"] == 0]
ok(rd and rd[0]["dumps"][0]["direction"] == "read" and
   rd[0]["dumps"][0]["hex"] == "68656c6c6f0a",
   "-e read=all: the data read")
x = find("dec.json", "setxattr")
ok(x and x[0]["args"][4]["value"] == {"names": ["XATTR_CREATE"]},
   "setxattr: XATTR_CREATE")
# (the prctl section renamed the process: its name is the last one.)
g = find("dec.json", "getpid")
comm = g[-1]["result"].split("<")[-1].rstrip(">") if g else None
ok(g and g[-1]["result"] == "%d<%s>" % (g[-1]["retval"], comm),
   "-Y: a pid with its name in the result")
kl = find("dec.json", "kill", lambda r: r["raw_args"][0] == g[-1]["retval"])
ok(kl and kl[-1]["args"][0]["value"] == {"decorated": {
       "value": g[-1]["retval"], "with": comm}},
   "-Y: a pid with its name in the arguments")
sp = find("dec.json", "socketpair")
ok(sp and sp[0]["args"][3]["value"]["array"][0]["decorated"]["with"]
   .startswith("UNIX:["), "-yy: a socket's endpoints after its descriptor")
o2 = find("dec.json", "openat")
ok(o2 and o2[0]["args"][0]["value"]["decorated"]["value"] ==
   {"names": ["AT_FDCWD"]}, "-y: AT_FDCWD with the directory")
c = find("inj.json", "chdir")
ok(c and c[0].get("injected") is True and c[0]["errno"] == "EACCES",
   "--inject: injected results say so")
k = [r for r in recs["inj.json"] if r["type"] == "killed"]
ok(k and k[0]["signal"] == "SIGKILL" and k[0]["core"] is False,
   "a process killed by SIGKILL")
si = [r for r in recs["dec.json"] if r["type"] == "signal"]
ok(si and all("value" in r["siginfo"] for r in si) and
   si[0]["siginfo"]["value"]["struct"]["si_signo"]["names"][0].startswith("SIG"),
   "signals: siginfo as a structure")
PY

# Both ways: the same records from the record path (--records) and with
# --stops-only (the default), once ids, times, inodes and addresses are masked (the
# pages the record path places in the process move its mappings).
for how in --records --stops-only; do
	"$U" $how --json -o "basic$how.json" ./prog >/dev/null 2>&1
	"$U" $how --json -f -y -o "dec$how.json" ./dec fcntl statfs strs widths \
		>/dev/null 2>&1
done
python3 - <<'PY'
import json, re

ADDR = re.compile(r"0x[0-9a-f]{6,}")
INODE = re.compile(r"\[\d+\]")
# calls whose result is a process or thread id
IDS = {"set_tid_address", "getpid", "gettid", "getppid", "clone", "clone3",
       "fork", "vfork", "wait4"}

def mask(v):
    if isinstance(v, dict):
        drop = {"pid", "tid", "time", "duration", "raw_args"}
        if v.get("syscall") in IDS:
            drop |= {"retval", "result"}
        if v.get("syscall") in ("kill", "tkill", "tgkill"):
            drop |= {"args"}  # pids
        return {k: mask(x) for k, x in v.items() if k not in drop}
    if isinstance(v, list):
        return [mask(x) for x in v]
    if isinstance(v, str):
        return INODE.sub("[N]", ADDR.sub("ADDR", v))
    if isinstance(v, int) and not isinstance(v, bool) and v >= 1 << 32:
        return "ADDR"
    return v

for name in ("basic", "dec"):
    a = [mask(json.loads(l)) for l in open(name + "--records.json")]
    b = [mask(json.loads(l)) for l in open(name + "--stops-only.json")]
    diff = [(x, y) for x, y in zip(a, b) if x != y]
    same = len(a) == len(b) and not diff and len(a) > 10
    print(("ok" if same else "not ok") + " - --json %s: the same %d records "
          "from records and with --stops-only" % (name, len(a)))
    for x, y in diff[:3]:
        print("# - " + json.dumps(x)[:400])
        print("# + " + json.dumps(y)[:400])
    if len(a) != len(b):
        print("# %d records against %d" % (len(a), len(b)))
PY
