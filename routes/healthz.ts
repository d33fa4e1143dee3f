// GET /healthz: whether the service works, for Docker, systemd and uptime monitors; no credential, no secrets.
import { Health, health, Unhealthy } from '#server/health/health.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { clientKey } from '#server/auth/address.ts'
import { tooMany } from '#server/errors.ts'

/** Asks a minute one address outside the LAN may send. */
const HEALTH_PER_MINUTE = 60

export const GET = defineRoute('public', 'Whether the service works', {
  operationId: 'health',
  description:
    'Runs small local checks (never a request to another host) and answers within about two seconds: 200 when every ' +
    'required check passes (the database answers; a complete site build is served and the last build succeeded), ' +
    'else 503. Optional checks (the season catalog, the calendar store when one is configured) show `ok: false` ' +
    'without making the service unhealthy. The mail check gives its counts and times only to a caller on the LAN. Never cached.',
  responses: ok(Health, 'Healthy: every required check passed', {
    429: `More than ${HEALTH_PER_MINUTE} asks in a minute from one address outside the LAN (an IPv6 one by its /64); Retry-After says when to ask again`,
    503: { description: 'Unhealthy: a required check failed (the body says which)', schema: Unhealthy },
  }),
  async handler(services) {
    const lan = services.addresses.isLan(services.address)
    // Anyone may ask, so a stranger looping on it must not take the database from the families: a monitor asks
    // about twice a minute, a stranger gets a minute's worth.
    if (!lan && services.healthLimiter.hit(clientKey(services.address) ?? 'unknown', HEALTH_PER_MINUTE) < 0)
      throw tooMany('Too many health checks from this address; ask again later', services.healthLimiter.resetSeconds())
    const report = await health(services, { lan })
    return Response.json(report, { status: report.ok ? 200 : 503, headers: { 'cache-control': 'no-store' } })
  },
})
