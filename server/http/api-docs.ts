// /api/docs: the OpenAPI document of every route (/api/docs/json) and a page that renders it with Swagger UI,
// installed with the service, the document inside the page: it works offline, asks nothing of another host, and
// runs under a strict policy. Who may read them is decided with the other credentials (a signed-in leader or above).
import { Elysia } from 'elysia'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { LoadedRoute } from '../routes.ts'
import { openApiDocument } from './openapi.ts'

const SWAGGER_UI = path.join(import.meta.dir, '..', '..', 'node_modules', 'swagger-ui-dist')
const ASSETS: Record<string, { file: string; type: string }> = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
}
/** Our changes to Swagger UI's look, so the page passes axe. */
const OVERRIDES = readFileSync(path.join(import.meta.dir, 'api-docs.css'), 'utf8')

const page = (document: object) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Admin API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css"><link rel="stylesheet" href="/api/docs/overrides.css"><link rel="icon" href="/favicon.svg" type="image/svg+xml"></head>
<body>
<div id="api-reference"></div>
<script type="application/json" id="openapi-document">${JSON.stringify(document).replaceAll('<', '\\u003c')}</script>
<script src="/api/docs/swagger-ui.js"></script>
<script src="/api/docs/start.js"></script>
</body>
</html>
`

// No validator badge (it would call validator.swagger.io) and no "try it out" from the page: scripts use keys. No deep
// links either: Swagger UI puts each one inside the button that opens the route, a link within a button. The areas
// open folded, one tap each: Swagger UI 5 silently stops drawing the list part way once it passes about 130
// operations unfolded, and a list of areas is the easier page to find one route in anyway.
const START = `SwaggerUIBundle({
  spec: JSON.parse(document.getElementById('openapi-document').textContent),
  dom_id: '#api-reference',
  validatorUrl: null,
  deepLinking: false,
  supportedSubmitMethods: [],
  defaultModelsExpandDepth: 0,
  docExpansion: 'none',
})
`

const POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; object-src 'none'"

const text = (body: string, type: string, headers: Record<string, string> = {}) =>
  new Response(body, { headers: { 'content-type': type, ...headers } })

export function apiDocs(registry: LoadedRoute[], baseUrl: string) {
  // Made when the docs are first read, not at start: the document and its page are about 9 MB that most runs never use.
  let made: { document: object; html: string } | null = null
  const docs = () => {
    if (made) return made
    const document = openApiDocument(registry, baseUrl)
    return (made = { document, html: page(document) })
  }
  const app = new Elysia({ name: 'api-docs' })
    .get('/api/docs', () => text(docs().html, 'text/html; charset=utf-8', { 'content-security-policy': POLICY }))
    .get('/api/docs/json', () => docs().document)
    .get('/api/docs/start.js', () => text(START, 'text/javascript; charset=utf-8'))
    .get('/api/docs/overrides.css', () => text(OVERRIDES, 'text/css; charset=utf-8'))
  for (const [name, asset] of Object.entries(ASSETS))
    app.get(
      `/api/docs/${name}`,
      () => new Response(Bun.file(path.join(SWAGGER_UI, asset.file)), { headers: { 'content-type': asset.type } }),
    )
  return app
}
