// /api/docs: the OpenAPI document of every route (/api/docs/json) and a page that renders it with the Scalar
// bundle installed with the service, so it works offline and under a strict policy. Who may read them is
// decided with the other credentials (a signed-in leader or above).
import { Elysia } from 'elysia'
import path from 'node:path'
import type { LoadedRoute } from '../routes.ts'
import { openApiDocument } from './openapi.ts'

const SCALAR_BUNDLE = path.join(import.meta.dir, '..', '..', 'node_modules', '@scalar', 'api-reference', 'dist', 'browser', 'standalone.js')

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Admin API</title></head>
<body>
<script id="api-reference" data-url="/api/docs/json" data-configuration='{"url":"/api/docs/json","withDefaultFonts":false,"hideClientButton":true}'></script>
<script src="/api/docs/scalar.js"></script>
</body>
</html>
`

export function apiDocs(registry: LoadedRoute[], baseUrl: string) {
  const document = openApiDocument(registry, baseUrl)
  return new Elysia({ name: 'api-docs' })
    .get('/api/docs', () => new Response(PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } }))
    .get('/api/docs/json', () => document)
    .get(
      '/api/docs/scalar.js',
      () => new Response(Bun.file(SCALAR_BUNDLE), { headers: { 'content-type': 'text/javascript; charset=utf-8' } }),
    )
}
