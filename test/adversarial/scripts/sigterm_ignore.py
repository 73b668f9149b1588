# Hostile: ignores SIGTERM, SIGINT and SIGHUP, then spins.
import signal
for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(sig, signal.SIG_IGN)
while True:
    pass
