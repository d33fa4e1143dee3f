// The event albums' API shapes: a photo as a caller sees it, an album, and what tagging, reviewing and taking down take.
import { t, Line, OptionalNullable, OneOf } from '../schemas.ts'

const SIZE_EXAMPLE = { url: '/photos/12/w960.webp', type: 'image/webp', width: 960, height: 640 }
const EXAMPLE = {
  id: 12,
  event_uid: '4f1c2f1e-6c2a-4d57-9d43-2a9a0e7f5b11@scouting-units-site',
  width: 1600,
  height: 1067,
  url: '/photos/12/w1600.jpg',
  sizes: [SIZE_EXAMPLE],
  uploaded_at: '2026-10-18T15:04:05.000Z',
  reviewed: true,
  public: false,
  taken_down: false,
  shown_to: 'families',
  yours: false,
}

export const SHOWN_TO = ['leaders', 'families', 'everyone'] as const

const Size = t.Object(
  {
    url: t.String({ description: 'Where this size is served (the same rule as the album decides who may open it)' }),
    type: t.String({ description: 'image/webp, or the image/jpeg fallback' }),
    width: t.Integer(),
    height: t.Integer(),
  },
  { additionalProperties: false },
)

const Tag = t.Object(
  {
    id: t.Integer(),
    name: t.String({ description: 'The scout as the roster names them; "A scout no longer on the roster" for one who left' }),
    photo_consent: t.Boolean({ description: 'False also for a scout who left the roster or whose household is inactive' }),
  },
  { additionalProperties: false },
)

export const PhotoView = t.Object(
  {
    id: t.Integer(),
    event_uid: t.String(),
    width: t.Integer({ description: 'The widest web size (the original is not kept: it carried the metadata)' }),
    height: t.Integer(),
    url: t.String({ description: 'The widest JPEG, for any browser; `sizes` has every size for srcset' }),
    sizes: t.Array(Size),
    uploaded_at: t.String({ format: 'date-time' }),
    reviewed: t.Boolean(),
    public: t.Boolean(),
    taken_down: t.Boolean(),
    shown_to: OneOf(SHOWN_TO, {
      description:
        'Who may open it now: leaders only (awaiting review, taken down, or a tagged scout without consent), the families of the event’s units, or everyone',
    }),
    yours: t.Boolean({ description: 'One of the caller’s own scouts is tagged in it: the family may ask for it to come down' }),
    scouts: t.Optional(t.Array(Tag, { description: 'The scouts tagged in it: for leaders of the event’s units only' })),
    uploaded_by: t.Optional(t.String({ description: 'Who sent it: for leaders only' })),
  },
  { $id: 'Photo', additionalProperties: false, examples: [EXAMPLE] },
)

export const Album = t.Object(
  {
    uid: t.String(),
    title: t.String(),
    date: t.String({ format: 'date' }),
    unit: OneOf(['pack', 'troop', 'both'] as const),
    leader: t.Boolean({ description: 'The caller leads the event’s unit: sees every photo, tags, reviews and deletes' }),
    can_upload: t.Boolean({
      description: 'Leaders of the event’s units, and families on it: a confirmed sign-up, or a scout recorded present',
    }),
    photos: t.Array(PhotoView),
    taggable: t.Optional(
      t.Array(Tag, {
        description:
          'For leaders: the scouts of the event’s units (active households), to tag in a photo; those on the event (of a confirmed yes, or recorded present) first, each part by name',
      }),
    ),
  },
  {
    $id: 'Album',
    additionalProperties: false,
    examples: [
      {
        uid: EXAMPLE.event_uid,
        title: 'Fall campout',
        date: '2026-10-17',
        unit: 'pack',
        leader: false,
        can_upload: true,
        photos: [EXAMPLE],
      },
    ],
  },
)

export const FamilyAlbums = t.Object(
  {
    albums: t.Array(t.Omit(Album, ['taggable']), {
      description:
        'Newest first: the events of the family’s units with photos they may see, and the events of the last 30 days their households were on (a confirmed yes, or a scout recorded present), with `can_upload` and no photos yet',
    }),
  },
  { $id: 'FamilyAlbums', additionalProperties: false, examples: [{ albums: [] }] },
)

export const PhotoTags = t.Object(
  {
    scout_ids: t.Array(t.Integer({ minimum: 1 }), {
      maxItems: 200,
      uniqueItems: true,
      description: 'Every scout in the photo (the whole list)',
    }),
  },
  { $id: 'PhotoTags', additionalProperties: false, examples: [{ scout_ids: [7, 9] }] },
)

export const PhotoReview = t.Object(
  {
    reviewed: t.Optional(t.Boolean({ description: 'A leader looked at it and its tags: families of the event’s units may see it' })),
    public: t.Optional(
      t.Boolean({ description: 'Anyone may open it (marks it reviewed too); refused while a tagged scout lacks consent' }),
    ),
  },
  { $id: 'PhotoReview', additionalProperties: false, examples: [{ reviewed: true, public: false }] },
)

export const Takedown = t.Object(
  { note: OptionalNullable(Line(500, { description: 'Why, in the family’s words, for the leaders' })) },
  { $id: 'PhotoTakedown', additionalProperties: false, examples: [{ note: 'Please take this one down' }] },
)

export const PhotoParams = t.Object({ id: t.Integer({ minimum: 1, description: 'The photo id', examples: [12] }) })
