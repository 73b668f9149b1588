# Hostile: opens files until the descriptor limit, then reports the count.
handles = []
try:
    while len(handles) < 100000:
        handles.append(open("/dev/null"))
except OSError:
    pass
print(f"fds={len(handles)}", flush=True)
