// Preloaded (`node -r`) into every process the bench starts, which it starts with an IPC channel:
// when the bench goes away, even killed, the channel closes and the child shuts itself down.
process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
if (process.channel) process.channel.unref();
