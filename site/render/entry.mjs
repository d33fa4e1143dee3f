// The compiled site's entry: the app that renders a page for a request, and what a build calls before it renders.
import { createApp } from 'astro/app/entrypoint'
import { readAfresh } from '../src/lib/data.ts'

export const app = createApp({ streaming: false })
export { readAfresh }
