// Whether another process already listens on the service's port: asked before the first site build, which can take
// a minute on a small box, so a start that cannot listen says so at once instead of after building.
export function portTaken(port: number): boolean {
  if (port === 0) return false // any free port will do
  try {
    Bun.serve({ port, reusePort: false, fetch: () => new Response(null) }).stop(true)
    return false
  } catch {
    return true
  }
}
