// Finds keys given twice in one JSON object, which JSON.parse accepts silently (the last one wins).

export interface DuplicateKey {
  /** JSON pointer (RFC 6901) of the object holding the key twice. */
  object: string
  key: string
  first: Position
  again: Position
}

/** 1-based line and column; columns count UTF-16 code units, as editors do. */
export interface Position {
  line: number
  column: number
}

const escapePointer = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1')

type Frame = { pointer: string; keys: Map<string, Position>; key: string | null; expectKey: boolean } | { pointer: string; index: number }

/** Every duplicate key of `text`, which must already be valid JSON (JSON.parse succeeded), in document order. */
export function duplicateKeys(text: string): DuplicateKey[] {
  const found: DuplicateKey[] = []
  const stack: Frame[] = []
  let line = 1
  let lineStart = 0
  const childPointer = () => {
    const top = stack.at(-1)
    if (!top) return ''
    return `${top.pointer}/${'index' in top ? top.index : escapePointer(top.key ?? '')}`
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x0a) {
      line++
      lineStart = i + 1
    } else if (c === 0x7b /* { */) stack.push({ pointer: childPointer(), keys: new Map(), key: null, expectKey: true })
    else if (c === 0x5b /* [ */) stack.push({ pointer: childPointer(), index: 0 })
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) stack.pop()
    else if (c === 0x2c /* , */) {
      const top = stack.at(-1)
      if (top && 'index' in top) top.index++
      else if (top) top.expectKey = true
    } else if (c === 0x3a /* : */) {
      const top = stack.at(-1)
      if (top && 'keys' in top) top.expectKey = false
    } else if (c === 0x22 /* " */) {
      let end = i + 1
      while (text.charCodeAt(end) !== 0x22) end += text.charCodeAt(end) === 0x5c /* \ */ ? 2 : 1
      const top = stack.at(-1)
      if (top && 'keys' in top && top.expectKey) {
        const raw = text.slice(i + 1, end)
        const key: string = raw.includes('\\') ? JSON.parse(text.slice(i, end + 1)) : raw
        const at = { line, column: i - lineStart + 1 }
        const first = top.keys.get(key)
        if (first) found.push({ object: top.pointer, key, first, again: at })
        else top.keys.set(key, at)
        top.key = key
      }
      i = end
    }
  }
  return found
}
