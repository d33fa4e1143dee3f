// An event's album for its leaders (?uid=…): add a photo, tag the scouts in it, review it for families, mark it
// public, delete it. The cards are drawn again from each answer, so what they say is what the server holds.
import type { AnswerOf } from '#server/routes.ts'
import { dayWords, plural } from '#server/words.ts'
import { onSend, api, byId, detailOf, h, showError, showOutcome, showStatus, signedInFor, type Route } from '../admin.ts'
import { withoutField } from '../field-errors.ts'
import { sendPhoto } from '../photo-upload.ts'
import { type PhotoView, photoPicture, SHOWN_WORDS } from '../photo-picture.ts'

await signedInFor('/admin/calendar/')

type Album = AnswerOf<Route<'GET /api/admin/calendar/{uid}/photos'>>
const uid = new URLSearchParams(location.search).get('uid') ?? ''
const path = `/api/admin/calendar/${encodeURIComponent(uid)}/photos` as const
let album: Album

function noAlbum(text: string) {
  byId('loading').hidden = true
  byId('no-album-detail').textContent = text
  byId('no-album').hidden = false
}

async function load() {
  const res = await api('GET', path)
  if (!res.ok) return noAlbum(res.status === 404 ? 'This event is not in the calendar (it may have been deleted).' : detailOf(res))
  album = res.body
  document.title = document.title.replace('Photos', `Photos: ${album.title}`)
  document.querySelector('h1')!.textContent = `Photos: ${album.title}`
  byId('album-when').textContent = dayWords(album.date, { year: true })
  byId('upload').hidden = !album.can_upload
  byId('loading').hidden = true
  byId('album').hidden = false
  draw()
}

function draw() {
  const list = byId('photos')
  list.replaceChildren(...album.photos.map((p, i) => card(p, i + 1)))
  if (!album.photos.length) list.append(h('li', { class: 'muted' }, 'No photos yet.'))
}

type PhotoAnswer = Awaited<ReturnType<typeof api<`/api/admin/photos/${number}`, 'PATCH'>>>

/** Puts the answer in place of the photo it is about, and says what happened (a refusal in its words). */
function replaced(res: PhotoAnswer, done: string) {
  if (!res.ok) {
    const words = withoutField(detailOf(res))
    return showError(words[0].toUpperCase() + words.slice(1))
  }
  album.photos = album.photos.map((p) => (p.id === res.body.id ? res.body : p))
  draw()
  showStatus(done)
}

function card(p: PhotoView, n: number) {
  const tags = h(
    'fieldset',
    { class: 'checks' },
    h('legend', {}, 'Scouts in this photo'),
    ...(album.taggable ?? []).map((s) =>
      h(
        'label',
        {},
        h('input', { type: 'checkbox', name: 'scout', value: String(s.id), checked: p.scouts?.some((t) => t.id === s.id) ?? false }),
        s.photo_consent ? s.name : `${s.name} (no photo consent)`,
      ),
    ),
    ...(p.scouts ?? [])
      .filter((t) => !album.taggable?.some((s) => s.id === t.id))
      .map((t) => h('label', {}, h('input', { type: 'checkbox', name: 'scout', value: String(t.id), checked: true }), t.name)),
  )
  const ticked = () => [...tags.querySelectorAll<HTMLInputElement>('input:checked')].map((i) => Number(i.value))
  const tag = () => api('PUT', `/api/admin/photos/${p.id}/scouts`, { scout_ids: ticked() })
  const saveTags = async () => replaced(await tag(), `Tags of photo ${n} saved.`)
  const set = async (change: { reviewed?: boolean; public?: boolean }, done: string) => {
    // A review or a public mark is for the scouts the leader sees ticked: ticks not saved yet are saved first.
    const saved = (p.scouts ?? []).map((t) => t.id)
    if (ticked().sort().join() !== saved.sort().join()) {
      const res = await tag()
      if (!res.ok) return replaced(res, '')
      album.photos = album.photos.map((x) => (x.id === res.body.id ? res.body : x))
    }
    const res = await api('PATCH', `/api/admin/photos/${p.id}`, change)
    if (!res.ok) draw() // the tags just saved show, beside the refusal
    replaced(res, done)
  }
  const remove = async () => {
    if (!confirm(`Delete photo ${n}? It cannot be brought back.`)) return
    const res = await api('DELETE', `/api/admin/photos/${p.id}`)
    if (!showOutcome(res, `Photo ${n} deleted.`)) return
    album.photos = album.photos.filter((x) => x.id !== p.id)
    draw()
  }
  const button = (label: string, onclick: () => void, kind = 'secondary') => h('button', { type: 'button', class: kind, onclick }, label)
  return h(
    'li',
    { class: 'card', 'data-photo': String(p.id) },
    photoPicture(p, `Photo ${n} from ${album.title}`),
    h('p', { class: 'shown' }, `Who sees it: ${SHOWN_WORDS[p.shown_to]}`),
    p.taken_down && h('p', { class: 'error' }, 'A family asked for this photo to come down.'),
    !p.reviewed && !p.taken_down && h('p', { class: 'muted' }, 'Waiting for review.'),
    p.reviewed &&
      p.shown_to === 'leaders' &&
      h('p', { class: 'muted' }, 'A scout tagged in it has no photo consent (or has left the roster): families do not see it.'),
    tags,
    h(
      'div',
      { class: 'row' },
      button('Save tags', saveTags),
      !p.taken_down &&
        (p.reviewed
          ? button('Hide from families', () => set({ reviewed: false }, `Photo ${n} is for leaders only again.`))
          : button('Show to families', () => set({ reviewed: true }, `Photo ${n} reviewed.`), 'primary')),
      !p.taken_down &&
        (p.public
          ? button('Not public', () => set({ public: false }, `Photo ${n} is no longer public.`))
          : button('Make public', () => set({ public: true }, `Photo ${n} is public: it shows on the site’s Photos page.`))),
      button('Delete', remove, 'danger'),
    ),
  )
}

// The photos chosen go one after another (a phone's photos of a hike, over a camp's signal), each kept at once; one
// refused is named with its reason, and the others still go.
let sending = false
onSend(byId('upload'), async (e) => {
  e.preventDefault()
  if (sending) return
  const form = e.currentTarget as HTMLFormElement
  const problem = byId('upload-error')
  const files = [...(byId<HTMLInputElement>('photo-file').files ?? [])]
  if (!files.length) return showError('Choose a photo first.', problem)
  sending = true
  showStatus('', problem)
  const refused: string[] = []
  let added = 0
  for (const [i, file] of files.entries()) {
    const which = files.length > 1 ? `photo ${i + 1} of ${files.length}` : 'the photo'
    const sent = await sendPhoto(path, file, (percent) => showStatus(`Sending ${which}: ${percent}%`))
    if (!sent.ok) {
      refused.push(`${file.name}: ${withoutField(sent.detail)}`)
      continue
    }
    album.photos.push(sent.body as PhotoView)
    added++
    draw()
  }
  sending = false
  form.reset()
  showStatus(added ? `${plural(added, 'photo')} added: tag the scouts in each, then show them to families.` : '')
  if (refused.length) showError(`Not added: ${refused.join('; ')}`, problem)
})

if (!uid) noAlbum('No event was chosen. Open the photos from an event on the calendar.')
else await load()
