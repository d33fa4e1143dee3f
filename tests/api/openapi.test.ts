// The OpenAPI document served at /api/docs/json: valid for Redocly's recommended rules with no error, every
// operation named, tagged, secured and answered, with examples that fit their schemas.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { contract, redoclyLint } from '../contract.ts'
import { ROLES, startServer, type TestServer } from '../helpers.ts'

let s: TestServer
let doc: any
beforeAll(async () => {
  s = await startServer({ PUBLIC_BASE_URL: 'https://pack123.example.org' })
  const leader = await s.as(ROLES.packLeader)
  doc = (await s.req('GET', '/api/docs/json', { cookie: leader.cookie })).body
})
afterAll(() => s.stop())

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([p, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path: p, method, op })),
  )

describe('GET /api/docs/json', () => {
  it('passes `redocly lint` with the recommended rules: no error, no warning but the two pairs of fixed paths', async () => {
    const { problems, exitCode } = redoclyLint(doc)
    // Every rule passes but one warning, twice: two pairs of paths the specification fixes read alike to a linter
    // (`/people/invite/{id}` and `/people/{id}/disable`; `/catalog/variants/{id}` and `/catalog/{season}/autocomplete`),
    // and the router sends the literal segment first, as the tests of each show.
    expect(problems).toEqual([
      'warn no-ambiguous-paths: Paths should resolve unambiguously. Found two ambiguous paths: `/api/admin/people/{id}/disable` and `/api/admin/people/invite/{id}`.',
      'warn no-ambiguous-paths: Paths should resolve unambiguously. Found two ambiguous paths: `/api/catalog/{season}/autocomplete` and `/api/catalog/variants/{id}`.',
    ])
    expect(exitCode).toBe(0)
  }, 60_000)

  it('names, tags, secures and describes every operation, with clean unique operationIds', () => {
    const tags = new Set(doc.tags.map((t: any) => t.name))
    const ids = new Set<string>()
    for (const { path: p, method, op } of operations()) {
      const where = `${method.toUpperCase()} ${p}`
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z0-9]+$/)
      expect(ids.has(op.operationId), where).toBe(false)
      ids.add(op.operationId)
      expect(op.tags.length, where).toBe(1)
      expect(tags.has(op.tags[0]), where).toBe(true)
      expect(op.summary.length, where).toBeGreaterThan(5)
      expect(Array.isArray(op.security), where).toBe(true)
      if (op['x-capability'] !== 'public') expect(op.security.length, where).toBeGreaterThan(0)
      expect(
        Object.keys(op.responses).some((c) => c.startsWith('2')),
        where,
      ).toBe(true)
      for (const param of op.parameters ?? []) {
        const shown = param.$ref ? doc.components.parameters[param.$ref.split('/').at(-1)] : param
        expect(shown.description?.length, `${where} ${shown.name}`).toBeGreaterThan(2)
      }
      expect(p, where).not.toContain('*')
    }
    expect(doc.servers).toEqual([{ url: 'https://pack123.example.org', description: 'This service' }])
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['bearer', 'breakGlass', 'session'])
  })

  it('gives every request body and every JSON answer an example that fits its schema', async () => {
    const { document } = await contract()
    const Ajv = (await import('ajv/dist/2020.js')).default
    const ajv = new Ajv({ strict: false })
    for (const format of ['date', 'email', 'date-time', 'binary']) ajv.addFormat(format, true)
    ajv.addSchema(document, 'doc')
    const escape = (x: string) => x.replaceAll('~', '~0').replaceAll('/', '~1')
    for (const { path: p, method, op } of operations()) {
      const where = `${method.toUpperCase()} ${p}`
      const media: [string, any][] = [
        ...Object.entries(op.requestBody?.content ?? {}).map(([type, m]) => [`requestBody/content/${escape(type)}`, m] as [string, any]),
        ...Object.entries(op.responses).flatMap(([status, r]: [string, any]) =>
          r.content?.['application/json']
            ? [[`responses/${status}/content/application~1json`, r.content['application/json']] as [string, any]]
            : [],
        ),
      ]
      for (const [pointer, m] of media) {
        expect(m.example, `${where} ${pointer}`).toBeDefined()
        const validate = ajv.getSchema(`doc#/paths/${escape(p)}/${method}/${pointer}/schema`)!
        expect(validate(m.example), `${where} ${pointer}: ${JSON.stringify(validate.errors)}`).toBe(true)
      }
    }
  })

  it('documents one error model and references it', () => {
    expect(doc.components.schemas.Error.properties.detail.type).toBe('string')
    const refusal = doc.paths['/api/admin/keys/{id}'].delete.responses['404']
    expect(refusal.content['application/json'].schema).toEqual({
      allOf: [{ $ref: '#/components/schemas/Error' }, { type: 'object', properties: { code: { type: 'string', enum: ['not_found'] } } }],
    })
    expect(doc.components.schemas.Error.required).toEqual(['detail', 'code'])
    // A route's own codes are listed beside its status's code.
    const claimed = doc.paths['/api/admin/leads/{id}/claim'].post.responses['409'].content['application/json'].schema
    expect(claimed.allOf[1].properties.code.enum).toEqual(['conflict', 'already_claimed', 'claimed_by_other'])
    const forbidden = doc.paths['/api/admin/keys/{id}'].delete.responses['403'].content['application/json'].schema
    expect(forbidden.allOf[1].properties.code.enum).toContain('capability_missing')
    const liveCap = doc.paths['/api/admin/announcements'].post.responses['409'].content['application/json'].schema
    expect(liveCap.properties.detail.type).toBe('string')
    expect(liveCap.properties.live.type).toBe('array')
    expect(liveCap.properties.code.const).toBe('live_cap_reached')
  })

  it('lists a key first where one may be used, and both a key and the token as 400 ambiguous_credentials', () => {
    const schemes = (method: string, p: string) => doc.paths[p][method].security.map((s: object) => Object.keys(s)[0])
    expect(schemes('get', '/api/admin/leads')).toEqual(['bearer', 'session', 'breakGlass'])
    expect(schemes('get', '/api/admin/roster')).toEqual(['bearer', 'session'])
    expect(schemes('post', '/api/admin/keys')).toEqual(['session'])
    for (const { path: p, method, op } of operations())
      if (op.security.length)
        expect(op.responses['400'].content['application/json'].schema.allOf[1].properties.code.enum, `${method} ${p}`).toContain(
          'ambiguous_credentials',
        )
  })

  it('declares the contract headers where they apply: request ids everywhere, versions on single resources, retries on POST', () => {
    const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` })
    for (const { path: p, method, op } of operations()) {
      expect(op.parameters, `${method} ${p}`).toContainEqual(ref('parameters', 'XRequestId'))
      for (const [status, answer] of Object.entries<any>(op.responses))
        expect(answer.headers?.['X-Request-Id'], `${method} ${p} ${status}`).toEqual(ref('headers', 'X-Request-Id'))
      if (method === 'post') expect(op.parameters, `${method} ${p}`).toContainEqual(ref('parameters', 'IdempotencyKey'))
      // A malformed Idempotency-Key is 422 on every POST, bodiless ones too.
      if (method === 'post') expect(op.responses['422'], `${method} ${p}`).toBeDefined()
    }
    const oneOf = doc.paths['/api/admin/roster/households'].post.requestBody.content['application/json'].schema.oneOf
    expect(oneOf.map((b: any) => b.required)).toEqual([['parent_name'], ['lead_id']])
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' })
    const key = doc.paths['/api/admin/settings/{key}'].put.parameters.find((p: any) => p.name === 'key')
    expect(key.schema.enum).toContain('announcements.live_cap')
    const since = doc.paths['/api/admin/history'].get.parameters.find((p: any) => p.name === 'since')
    expect(since.schema.format).toBe('date-time')
    const household = doc.paths['/api/admin/roster/households/{id}']
    expect(household.get.parameters).toContainEqual(ref('parameters', 'IfNoneMatch'))
    expect(household.get.responses['200'].headers.ETag).toEqual(ref('headers', 'ETag'))
    expect(household.get.responses['304']).toBeDefined()
    expect(household.patch.parameters).toContainEqual(ref('parameters', 'IfMatch'))
    expect(household.patch.responses['412'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual([
      'precondition_failed',
    ])
  })

  it('describes the social-post actions as three operations on {post_id}', () => {
    expect(doc.paths['/api/admin/socialposts/{post_id}/image'].get.operationId).toBe('getSocialPostImage')
    expect(doc.paths['/api/admin/socialposts/{post_id}/cancel'].post.operationId).toBe('cancelSocialPost')
    expect(doc.paths['/api/admin/socialposts/{post_id}/reschedule'].post.requestBody).toBeDefined()
  })
})
