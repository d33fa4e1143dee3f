// GET /manifest.webmanifest: the app a family adds to the home screen, starting at their family page.
import { manifestResponse } from '../lib/app-manifest.ts'

export const GET = () => manifestResponse('/family/')
