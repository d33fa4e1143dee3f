// Preloaded into every site build (`bun --preload`): the build ends itself once the service that started it is gone,
// however the service ended (a kill -9 included), so no build outlives it and none is left to collide with the next.
const service = process.ppid
setInterval(() => {
  if (process.ppid !== service) process.exit(70)
}, 250).unref()
