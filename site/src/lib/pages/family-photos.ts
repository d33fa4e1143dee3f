// The family page's photos: the albums of your units' events with the photos you may see, and for a photo of your
// own scout a button to ask for it to come down (hidden at once; the leaders are told).
import { dayWords } from '#server/words.ts'
import { api, byId, h, showError, showStatus } from '../admin.ts'
import { photoPicture } from '../photo-picture.ts'

const res = await api('GET', '/api/admin/family/photos')
const section = byId('albums')
const status = byId('albums-status')
if (res.ok && res.body.albums.length) {
  byId('albums-list').replaceChildren(
    ...res.body.albums.map((album) =>
      h(
        'div',
        { class: 'card', 'data-album': album.uid },
        h('h3', {}, `${album.title}, ${dayWords(album.date, { year: true })}`),
        h(
          'ul',
          { class: 'plain album-grid' },
          ...album.photos.map((p, i) => {
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
                      if (!confirm('Ask for this photo of your scout to come down? It is hidden from everyone but the leaders at once.'))
                        return
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
          }),
        ),
      ),
    ),
  )
  section.hidden = false
}
