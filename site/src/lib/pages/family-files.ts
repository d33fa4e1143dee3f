// The family page's forms and lists: permission slips, packing lists and the unit's forms, each with its event.
import { dayWords, sizeWords } from '#server/words.ts'
import { api, byId, h } from '../admin.ts'

/** What kind of file it is, in a word a parent knows. */
const kindWords = (mime: string) =>
  mime === 'application/pdf' ? 'PDF' : mime.startsWith('image/') ? 'picture' : mime === 'text/plain' ? 'text' : 'document'

const res = await api('GET', '/api/admin/family/files')
if (res.ok && res.body.files.length) {
  byId('files-list').replaceChildren(
    ...res.body.files.map((f) =>
      h(
        'li',
        { 'data-file': f.id },
        h('a', { href: f.url }, f.name),
        h(
          'span',
          { class: 'muted' },
          ` (${kindWords(f.mime)}, ${sizeWords(f.bytes)})${f.event ? ` · ${f.event.title}, ${dayWords(f.event.date)}` : ''}`,
        ),
      ),
    ),
  )
  byId('family-files').hidden = false
}
