// GET /site-paths.json: the paths of the pages made from the data, for the site build (server/site/build.ts), which
// renders them and does not write this list among the site's files.
import { dataPaths } from '../lib/site-paths.ts'

export async function GET() {
  return Response.json(await dataPaths())
}
