#!/bin/sh
# The CLI's engines as objects: two printers with different settings and a
# counter, each with its own output, in one process; two printers that
# follow a process tree (test/cli/engines.c).
O=${O:-build}
exec "$O/test/cli/engines"
