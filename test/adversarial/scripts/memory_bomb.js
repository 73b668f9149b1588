// Hostile: keeps 1 MiB buffers for ever.
const kept = [];
setInterval(() => {
  for (let i = 0; i < 20; i++) kept.push(Buffer.alloc(1 << 20, 1));
}, 1);
