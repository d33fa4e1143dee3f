// The compiled site's entry: the app that renders a page for a request.
import { createApp } from 'astro/app/entrypoint'

export const app = createApp({ streaming: false })
