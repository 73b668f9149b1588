# Hostile: rewrites its own source so the next run does something else.
try:
    with open(__file__, "a") as handle:
        handle.write("\nprint('modified')\n")
    print("MODIFIED")
except OSError as error:
    print(f"blocked: {error.strerror}")
