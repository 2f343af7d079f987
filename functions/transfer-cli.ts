// `npm run import -- <archive>` and `npm run export -- <archive>` (integration.md §21): the I/O
// around lib/transfer/ (progress on stderr, the counts per type on stdout).
import { exportArchive } from '../lib/transfer/export.js'
import { importArchive } from '../lib/transfer/import.js'
import { openTable, parseTransferArgs, TRANSFER_USAGE, TransferUsageError } from '../lib/transfer/cli.js'

const [command, ...rest] = process.argv.slice(2)
try {
  if (command !== 'import' && command !== 'export') throw new TransferUsageError(`Unknown command ${command ?? '(none)'}`)
  const args = parseTransferArgs(rest)
  const { services, typesDir, where, close } = await openTable(args, process.env, process.cwd())
  try {
    process.stderr.write(`${command}: ${args.archive} ${command === 'import' ? 'into' : 'from'} the ${where}\n`)
    if (command === 'import') {
      const started = performance.now()
      const report = await importArchive(services, args.archive, { concurrency: args.concurrency, progress: (done, total) => process.stderr.write(`import: ${done} / ${total} versions\n`) })
      process.stderr.write(`import: done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
      if (report.differences.length > 0) {
        process.stderr.write(`The archive's schemas differ from the project's content types; nothing was written:\n${report.differences.map((line) => `  - ${line}`).join('\n')}\n`)
        process.exitCode = 1
      } else process.stdout.write(`${JSON.stringify({ localesAdded: report.locales, counts: report.counts }, null, 2)}\n`)
    } else {
      const report = await exportArchive(services, args.archive, { typesDir, concurrency: args.concurrency, progress: (rows) => process.stderr.write(`export: ${rows} rows\n`) })
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
    }
  } finally {
    await close()
  }
} catch (error) {
  if (error instanceof TransferUsageError) {
    process.stderr.write(`Error: ${error.message}\n\n${TRANSFER_USAGE}\n`)
    process.exitCode = 2
  } else {
    process.stderr.write(`${command ?? ''} failed: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 1
  }
}
