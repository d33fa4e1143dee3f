// GET /healthz: whether the service works, for Docker, systemd and uptime monitors; no credential, no secrets.
import { Health, health, Unhealthy } from '#server/ops/health.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('public', 'Whether the service works', {
  operationId: 'health',
  description:
    'Runs small local checks (never a request to another host) and answers within about two seconds: 200 when every ' +
    'required check passes (the database answers; a complete site build is served and the last build succeeded), ' +
    'else 503. Optional checks (the season catalog, the calendar store when one is configured) show `ok: false` ' +
    'without making the service unhealthy. The mail check gives its counts and times only to a caller on the LAN. Never cached.',
  responses: ok(Health, 'Healthy: every required check passed', {
    503: { description: 'Unhealthy: a required check failed (the body says which)', schema: Unhealthy },
  }),
  async handler(services) {
    const report = await health(services, { lan: services.addresses.isLan(services.address) })
    return Response.json(report, { status: report.ok ? 200 : 503, headers: { 'cache-control': 'no-store' } })
  },
})
