# Hostile: looks for host processes and their environments through /proc.
import os, sys
pids = [name for name in os.listdir("/proc") if name.isdigit()]
print(f"pids={len(pids)}")
print("HOSTPID_VISIBLE" if sys.argv[1] in pids else "host pid hidden")
try:
    print("ENV1", open("/proc/1/environ", "rb").read()[:200])
except OSError as error:
    print(f"blocked: {error.strerror}")
