// Schemas and small helpers shared by several route modules.
import { t } from 'elysia'
import { notFound } from './errors.ts'

export const IdParams = t.Object({ id: t.String() })

/** A numeric path id; anything else is a thing that does not exist (404). */
export function parseId(id: string): number {
  if (!/^\d{1,15}$/.test(id)) throw notFound()
  return Number(id)
}

export const Email = t.String({ format: 'email', maxLength: 254, error: 'must be an email address' })
export const Password = t.String({ minLength: 8, maxLength: 200, error: 'must be 8 to 200 characters' })

export const nowIso = () => new Date().toISOString()
