// The family page's photos: the albums of your units' events with the photos you may see, for a photo of your own
// scout a button to ask for it to come down (hidden at once; the leaders are told), and for the recent events your
// scout was on a form to add your own photos (a leader looks at each before other families see it).
import type { AnswerOf } from '#server/routes.ts'
import { dayWords } from '#server/words.ts'
import { onSend, api, byId, h, showError, showStatus, type Route } from '../admin.ts'
import { photoPicture } from '../photo-picture.ts'
import { sendPhoto } from '../photo-upload.ts'

type Album = AnswerOf<Route<'GET /api/admin/family/photos'>>['albums'][number]

const res = await api('GET', '/api/admin/family/photos')
const section = byId('albums')
const status = byId('albums-status')
if (res.ok && res.body.albums.length) {
  byId('albums-list').replaceChildren(...res.body.albums.map(albumCard))
  section.hidden = false
}

function albumCard(album: Album, n: number) {
  return h(
    'div',
    { class: 'card', 'data-album': album.uid },
    h('h3', {}, `${album.title}, ${dayWords(album.date, { year: true })}`),
    album.photos.length
      ? h('ul', { class: 'plain album-grid' }, ...album.photos.map((p, i) => photoItem(album, p, i)))
      : h('p', { class: 'muted' }, 'No photos here yet.'),
    album.can_upload && uploadForm(album, n),
  )
}

function photoItem(album: Album, p: Album['photos'][number], i: number) {
  const item = h(
    'li',
    { 'data-photo': String(p.id) },
    photoPicture(p, `Photo ${i + 1} from ${album.title}`, '(min-width: 40rem) 12rem, 50vw'),
  )
  if (p.yours)
    item.append(
      h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          onclick: async () => {
            if (!confirm('Ask for this photo of your scout to come down? It is hidden from everyone but the leaders at once.')) return
            const done = await api('POST', `/api/admin/photos/${p.id}/takedown`, {})
            if (!done.ok) return showError(done, status)
            item.remove()
            showStatus('The photo is hidden, and the leaders are told.', status)
          },
        },
        'Ask to take it down',
      ),
    )
  return item
}

/** A form to add one photo to the album, saying in words how far the upload has got and how it ended. */
function uploadForm(album: Album, n: number) {
  const id = `album-photo-${n}`
  const input = h('input', { id, name: 'file', type: 'file', accept: 'image/*', 'aria-describedby': `${id}-note` }) as HTMLInputElement
  const button = h('button', { type: 'submit' }, 'Send the photo') as HTMLButtonElement
  const progress = h('p', { role: 'status', class: 'notice', hidden: true })
  const problem = h('p', { role: 'alert', class: 'error', tabindex: '-1', hidden: true })
  const form = h(
    'form',
    { class: 'stack album-upload', novalidate: true },
    h('label', { for: id }, `Add a photo from ${album.title}`),
    input,
    h('p', { id: `${id}-note`, class: 'muted' }, 'A leader looks at each photo before other families see it.'),
    problem,
    button,
    progress,
  ) as HTMLFormElement
  onSend(form, async (event) => {
    event.preventDefault()
    const file = input.files?.[0]
    showStatus('', progress)
    if (!file) return showError('Choose a photo first.', problem)
    showError('', problem)
    button.disabled = true
    showStatus('Sending the photo…', progress)
    const sent = await sendPhoto(`/api/admin/calendar/${encodeURIComponent(album.uid)}/photos`, file, (percent) =>
      showStatus(`Sending the photo: ${percent}% sent…`, progress),
    )
    button.disabled = false
    if (!sent.ok) {
      showStatus('', progress)
      return showError(sent.detail, problem)
    }
    form.reset()
    showStatus('Photo added. A leader looks at it, then other families of the unit see it here.', progress)
  })
  return form
}
