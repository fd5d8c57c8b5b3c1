// Preloaded (--import) into the mock command by the soak run: answers `memory` on the IPC
// channel with the process's memory after a full collection (node --expose-gc), so the figures
// are the mock's own, measured in its process. It changes nothing else the command does.
process.on('message', (message) => {
  if (message !== 'memory') return;
  globalThis.gc?.();
  process.send?.({ memory: process.memoryUsage() });
});
// The channel must not keep the command alive after SIGTERM closes its server.
process.channel?.unref();
