// Preloaded into every site build (`bun --preload`): the build ends itself once the service that started it is gone,
// however the service ended (a kill -9 included), so no build outlives it and none is left to collide with the next.
// Its starter names itself (SITE_BUILD_SERVICE_PID): a service killed before this line ran would otherwise leave the
// build an orphan that takes its new parent for the service.
const service = Number(process.env.SITE_BUILD_SERVICE_PID) || process.ppid
setInterval(() => {
  if (process.ppid !== service) process.exit(70)
}, 250).unref()
