# Hostile: talks to a service the host runs on 127.0.0.1.
import socket, sys
try:
    connection = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2)
    print("CONNECTED", connection.recv(100))
except OSError as error:
    print(f"blocked: {error}")
