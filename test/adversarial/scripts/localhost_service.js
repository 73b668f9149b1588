// Hostile: connects to a host service on 127.0.0.1.
const net = require("node:net");
const socket = net.connect(Number(process.argv[2]), "127.0.0.1");
socket.on("data", (data) => console.log(`CONNECTED ${data}`));
socket.on("error", (error) => console.log(`blocked: ${error.code}`));
