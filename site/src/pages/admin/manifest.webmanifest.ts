// GET /admin/manifest.webmanifest: the app a leader adds to the home screen, starting at the admin dashboard.
import { manifestResponse } from '../../lib/app-manifest.ts'

export const GET = () => manifestResponse('/admin/')
