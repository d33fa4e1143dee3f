// /api/admin/socialposts/<post_id>/{image,cancel,reschedule}: post ids hold a slash, so one file serves the
// actions after the id (send the slash as it is or as %2F).
import { defineRoute, defineTail } from '#server/routes.ts'
import { t } from '#server/schemas.ts'
import { cancelPost, PostAnswer, PostId, postImage, Reschedule, reschedulePost } from '#server/socialposts/posts.ts'

const Params = t.Object({ post_id: { ...PostId, description: '<unit>/<queue-stem>; the slash may be sent as is or as %2F' } })
const changeAnswers = {
  200: { description: 'The post as recorded after the publisher acted', schema: PostAnswer },
  404: 'No such post',
  409: 'The post time has passed, it is cancelled or failed, or it has no cancel link yet',
  502: 'The publisher refused or did not answer; nothing was recorded',
} as const

export const GET = defineTail('post_id', {
  image: defineRoute({
    auth: 'socialposts:read',
    summary: "A post's stored image, with its type",
    operationId: 'getSocialPostImage',
    params: Params,
    responses: { 200: { description: 'The image bytes', media: 'image/*' }, 404: 'No such post, or it has no image' },
    handler: ({ db, params }) => postImage(db, params.post_id),
  }),
})

export const POST = defineTail('post_id', {
  cancel: defineRoute({
    auth: 'socialposts:read',
    person: true,
    summary: "Cancel a post through the publisher's signed link",
    operationId: 'cancelSocialPost',
    params: Params,
    responses: changeAnswers,
    handler: ({ db, caller, params }) => cancelPost(db, caller, params.post_id),
  }),
  reschedule: defineRoute({
    auth: 'socialposts:read',
    person: true,
    summary: 'Ask the publisher to move a post; it waits as a draft until the publisher schedules it again',
    operationId: 'rescheduleSocialPost',
    params: Params,
    body: Reschedule,
    responses: {
      ...changeAnswers,
      200: { description: 'The post, now a draft with no cancel link', schema: PostAnswer },
      409: 'As for cancel, or the publisher is not configured (setting socialposts.control_url)',
      422: 'scheduled_for is sooner than socialposts.min_lead_minutes from now, or a field that does not fit',
    },
    handler: ({ db, caller, params, body }) => reschedulePost(db, caller, params.post_id, body),
  }),
})
