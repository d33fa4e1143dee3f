// /api/admin/socialposts/<post_id>/{image,cancel,reschedule}: post ids hold a slash, so one file serves the
// actions after the id (send the slash as it is or as %2F).
import { defineRoute, defineTail, ok } from '#server/routes.ts'
import { t } from '#server/schemas.ts'
import { cancelPost, PostAnswer, PostId, postImage, Reschedule, reschedulePost } from '#server/socialposts/posts.ts'

const Params = t.Object({ post_id: PostId })
const refusals = {
  403: { description: 'A post of a unit you do not lead', codes: ['unit_out_of_scope'] },
  404: 'No such post',
  409: 'The post time has passed, it is cancelled or failed, or it has no cancel link yet',
  502: 'The publisher refused, did not answer or may not be called at that address; nothing was recorded',
}

export const GET = defineTail('post_id', {
  image: defineRoute('socialposts:read', "Get a post's image", {
    operationId: 'getSocialPostImage',
    params: Params,
    responses: ok({ media: 'image/*' }, 'The image bytes, with their type', { 404: 'No such post, or it has no image' }),
    handler: ({ db, params }) => postImage(db, params.post_id),
  }),
})

export const POST = defineTail('post_id', {
  cancel: defineRoute('socialposts:read', 'Cancel a post', {
    description: "Through the publisher's signed link; recorded once the publisher accepted.",
    operationId: 'cancelSocialPost',
    params: Params,
    responses: ok(PostAnswer, 'The post, cancelled', refusals),
    handler: ({ db, caller, params, outbound }) => cancelPost(db, outbound, caller, params.post_id),
  }),
  reschedule: defineRoute('socialposts:read', 'Reschedule a post', {
    description: 'Asks the publisher to move it; it waits as a draft, with no cancel link, until the publisher schedules it again.',
    operationId: 'rescheduleSocialPost',
    params: Params,
    body: Reschedule,
    responses: ok(PostAnswer, 'The post, now a draft', {
      ...refusals,
      409: `${refusals[409]}; or the publisher is not configured`,
      422: 'scheduled_for is sooner than socialposts.min_lead_minutes from now',
    }),
    handler: ({ db, caller, params, body, outbound }) => reschedulePost(db, outbound, caller, params.post_id, body),
  }),
})
