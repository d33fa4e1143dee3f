// Which route a call of the admin client reaches, worked out from its method and path at the type level (as Hono's
// `hc` and Elysia's Eden do): a path matches a documented path of the route table with each `{param}` as any text
// and a query string allowed after it; where several match (`/leads/5/claim` matches `/leads/{id}` too), the
// narrowest wins.
import type { Method } from '#server/routes.ts'
import type { RouteTable } from './route-table.ts'

/** The route definition behind a method and documented path: `Route<'GET /api/admin/leads/{id}'>`. */
export type Route<K extends keyof RouteTable> = RouteTable[K]

type DocPath = keyof RouteTable extends `${Method} ${infer P}` ? P : never
/** The paths that reach a documented path, a query string allowed: `/leads/{id}` → `/leads/${string}` (and `?…`). */
type Reaching<D extends string> = D extends `${infer Before}{${string}}${infer After}` ? `${Before}${string}${Reaching<After>}` : D
type Reaches<P extends string, D extends string> = P extends Reaching<D> | `${Reaching<D>}?${string}` ? true : false
/** The documented paths other than `D` that `P` reaches and that narrow `D` (`/leads/{id}/claim` narrows `/leads/{id}`). */
type NarrowerReached<P extends string, D extends DocPath, O extends DocPath = Exclude<DocPath, D>> = O extends unknown
  ? Reaches<P, O> extends true
    ? Reaching<O> extends Reaching<D>
      ? O
      : never
    : never
  : never
/** The documented path `P` stands for: of those it reaches (`/leads/5/claim` reaches `/leads/{id}` too), the narrowest. */
type Narrowest<P extends string, D extends DocPath = DocPath> = D extends unknown
  ? Reaches<P, D> extends true
    ? [NarrowerReached<P, D>] extends [never]
      ? D
      : never
    : never
  : never
/** The documented path of each path in `P`. */
type PathAt<P extends string> = P extends unknown ? Narrowest<P> : never
/** The methods the route table has at a path; never for a path no route has. */
export type MethodAt<P extends string> = keyof RouteTable extends infer K
  ? K extends `${infer M extends Method} ${PathAt<P>}`
    ? M
    : never
  : never
/** The route a call of `method` on `path` reaches. */
export type RouteAt<M extends Method, P extends string> = RouteTable[`${M} ${PathAt<P>}` & keyof RouteTable]
