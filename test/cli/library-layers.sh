#!/bin/sh
# The library's layers and gdb's framing use only what docs/DESIGN.md
# allows ("Folders and what may use what"): scripts/check-layers, which
# prints one TAP line per rule (the command's folders: layers.sh).
exec sh "$(dirname "$0")/../../scripts/check-layers"
