// The API contract, checked on every answer the tests receive (as Schemathesis does): the status must be one
// the OpenAPI document declares for the operation, and a JSON body must fit the schema declared for it. The
// document is the one /api/docs/json serves, built from the same route registry.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js'
import { EMAIL_PATTERN, instantOf, isCalendarDate } from '../server/formats.ts'
import { openApiDocument } from '../server/http/openapi.ts'
import { loadRoutes, pathPattern } from '../server/routes.ts'

type Json = Record<string, any>

interface Operation {
  method: string
  pattern: RegExp
  docPath: string
}

export class Contract {
  private ajv = new Ajv2020({ strict: false, allErrors: false })
  private validators = new Map<string, ValidateFunction>()

  private constructor(
    readonly document: Json,
    private operations: Operation[],
  ) {
    this.ajv.addFormat('date', isCalendarDate)
    this.ajv.addFormat('email', EMAIL_PATTERN)
    this.ajv.addFormat('date-time', (v: string) => instantOf(v) !== null)
    this.ajv.addSchema(document, 'openapi')
  }

  static async load(): Promise<Contract> {
    const routes = await loadRoutes()
    const document = openApiDocument(routes, 'http://localhost')
    // Tail actions first, so `<id>/cancel` is not taken for another operation's wildcard; then, as the router
    // does, a static segment before a parameter (`/api/catalog/search` before `/api/catalog/{season}`).
    const params = (docPath: string) => (docPath.match(/\{/g) ?? []).length
    const operations = routes
      .map((r) => ({ method: r.method, pattern: pathPattern(r), docPath: r.docPath, tail: !!r.tail }))
      .sort((a, b) => Number(b.tail) - Number(a.tail) || params(a.docPath) - params(b.docPath))
    return new Contract(document, operations)
  }

  private validator(pointer: string): ValidateFunction {
    let v = this.validators.get(pointer)
    if (!v) this.validators.set(pointer, (v = this.ajv.getSchema(`openapi#${pointer}`)!))
    return v
  }

  /** Returns what is wrong with an answer, or null when it keeps the contract. */
  check(method: string, path: string, status: number, contentType: string | null, body: unknown): string | null {
    const op = this.operations.find((o) => o.method === method && o.pattern.test(path))
    const json = contentType?.startsWith('application/json') ?? false
    if (!op) {
      // Not an operation of the API (a page, an unknown path): a refusal still has the one error shape.
      if (status >= 400 && json && !this.validator('/components/schemas/Error')(body)) return `${status} without {detail}`
      return null
    }
    const operation = this.document.paths[op.docPath][method.toLowerCase()]
    const answer = operation.responses[String(status)]
    if (!answer)
      return `${method} ${op.docPath} answered ${status}, which its operation does not declare (${Object.keys(operation.responses).join(', ')})`
    if (!json || !answer.content?.['application/json']?.schema) return null
    const escape = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1')
    const pointer = `/paths/${escape(op.docPath)}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`
    const validate = this.validator(pointer)
    if (validate(body)) return null
    const first = validate.errors?.[0]
    return `${method} ${op.docPath} ${status}: the body does not fit its schema at ${first?.instancePath || '/'} (${first?.message}): ${JSON.stringify(body).slice(0, 300)}`
  }
}

let shared: Promise<Contract> | null = null
/** One contract per test process: the registry and the document are the same for every test server. */
export const contract = () => (shared ??= Contract.load())

/** `redocly lint` with the recommended rules on `document`: each problem as `severity ruleId: message`, and its exit code. */
export function redoclyLint(document: unknown): { problems: string[]; exitCode: number } {
  const dir = mkdtempSync(path.join(tmpdir(), 'openapi-'))
  try {
    const file = path.join(dir, 'openapi.json')
    writeFileSync(file, JSON.stringify(document))
    const lint = Bun.spawnSync([path.join(import.meta.dir, '..', 'node_modules', '.bin', 'redocly'), 'lint', file, '--format=json'], {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    })
    const out = lint.stdout.toString()
    const report = JSON.parse(out.slice(out.indexOf('{')))
    return { problems: report.problems.map((p: any) => `${p.severity} ${p.ruleId}: ${p.message}`), exitCode: lint.exitCode }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
