# Hostile: starts threads until the process limit stops it, then reports how many it got.
import threading, time
count = 0
try:
    while count < 5000:
        threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
        count += 1
except RuntimeError:
    pass
print(f"threads={count}", flush=True)
