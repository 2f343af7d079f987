// `npm run --silent admin -- <command>`: the administration API from a shell, for scripts and CI.
// Parsing and rendering live in lib/admin-cli-commands.ts; this file only does the I/O.
import { parseAdminCommand, sendAdminRequest, USAGE, UsageError } from '../lib/admin-cli-commands.js'

try {
  const command = parseAdminCommand(process.argv.slice(2), process.env)
  if (command.kind === 'help') {
    process.stdout.write(`${USAGE}\n`)
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
