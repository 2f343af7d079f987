// `npm run --silent admin -- <command>`: the administration API from a shell, for scripts and CI.
// Parsing and rendering live in lib/admin-cli-commands.ts; this file only does the I/O.
import { parseAdminCommand, sendAdminRequest, USAGE, UsageError } from '../lib/admin-cli-commands.js'

try {
  const command = parseAdminCommand(process.argv.slice(2), process.env)
  if (command.kind === 'help') {
    process.stdout.write(`${USAGE}\n`)
  } else if (command.request.url.endsWith('/admin/reindex')) {
    // A pass is many steps: send each with the cursor of the last, print progress on stderr.
    let request = command.request
    for (let total = 0; ;) {
      const outcome = await sendAdminRequest(request)
      if (outcome.exitCode !== 0) {
        process.stderr.write(outcome.stderr)
        process.exitCode = 1
        break
      }
      const step = JSON.parse(outcome.stdout) as { cursor: string | null; documents: number; done: boolean }
      total += step.documents
      process.stderr.write(`reindex: ${total} documents written${step.cursor === null ? '' : `, resume with --cursor ${step.cursor}`}\n`)
      if (step.done) {
        process.stdout.write(`${JSON.stringify({ documents: total, done: true })}\n`)
        break
      }
      request = { ...request, body: { cursor: step.cursor } }
    }
  } else {
    const outcome = await sendAdminRequest(command.request)
    process.stdout.write(outcome.stdout)
    process.stderr.write(outcome.stderr)
    process.exitCode = outcome.exitCode
  }
} catch (error) {
  if (!(error instanceof UsageError)) throw error
  process.stderr.write(`Error: ${error.message}\n\n${USAGE}\n`)
  process.exitCode = 2
}
