// Social posts: the status they read as, how they are shown, and the calls to the publisher (which holds the secret).
import type { SocialPost } from '../db/database.ts'
import { conflict, HttpError } from '../errors.ts'

export const STATUSES = ['drafted', 'scheduled', 'handed_off', 'cancelled', 'published', 'failed'] as const
export const PUBLISHER_TIMEOUT_MS = 8000

/** A post whose time has passed reads as published, unless it was cancelled or failed. */
export function statusOf(p: Pick<SocialPost, 'status' | 'scheduled_for'>, now = Date.now()): SocialPost['status'] {
  if (p.status === 'cancelled' || p.status === 'failed' || p.status === 'published') return p.status
  return Date.parse(p.scheduled_for) <= now ? 'published' : p.status
}

/** The open list holds every reported post with its status; only published ones drop out of it. */
export const isOpen = (status: SocialPost['status']) => status !== 'published'

export function postView(p: SocialPost) {
  const { image, image_mime, image_sha256, ...rest } = p
  return {
    ...rest,
    status: statusOf(p),
    image: image ? { mime: image_mime, sha256: image_sha256, url: `/api/admin/socialposts/${p.id}/image` } : null,
  }
}

/** 409 before anything is sent when the post's time has passed or it cannot be changed any more. */
export function assertChangeable(p: SocialPost) {
  const status = statusOf(p)
  if (status === 'published') throw conflict('The post time has passed; it is published and can no longer be changed')
  if (status === 'cancelled' || status === 'failed') throw conflict(`The post is ${status}`)
  if (!p.cancel_url) throw conflict('The post has no cancel link yet; the publisher sends one when it schedules the post again')
}

/**
 * Sends a request to the publisher; 2xx resolves, a refusal or no answer is 502 saying what failed. The
 * publisher's reply is never echoed: it is another system's text, not ours to show.
 */
export async function callPublisher(url: string, init: RequestInit, what: string): Promise<void> {
  let res: Response
  try {
    res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(PUBLISHER_TIMEOUT_MS) })
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError'
    throw new HttpError(502, `The publisher ${timedOut ? 'did not answer in time' : 'could not be reached'} to ${what}`)
  }
  await res.body?.cancel()
  if (!res.ok) throw new HttpError(502, `The publisher refused to ${what} (HTTP ${res.status})`)
}
