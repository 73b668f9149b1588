# Hostile: connects to host unix sockets (a path outside the workspace, an abstract name).
import socket, sys
for address in (sys.argv[1], "\0" + sys.argv[2], "/var/run/docker.sock", "/run/dbus/system_bus_socket"):
    try:
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.settimeout(2)
        client.connect(address)
        print("CONNECTED", repr(address), client.recv(100))
    except OSError as error:
        print(f"blocked {address!r}: {error}")
