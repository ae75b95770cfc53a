#!/usr/bin/env python3
"""Reports the ptxas state lit.cfg.py found; fails when it is missing in CI.

Usage: ptxas_state.py present|missing|missing-in-ci
"""
import sys

state = sys.argv[1] if len(sys.argv) > 1 else ""
if state == "present":
    print("ptxas: present")
elif state == "missing":
    print("ptxas: missing (the PTX tests do not run)")
elif state == "missing-in-ci":
    print("error: ptxas is missing in CI (CI=true): the PTX tests would not "
          "run")
    sys.exit(1)
else:
    print(f"error: unknown ptxas state '{state}'")
    sys.exit(2)
