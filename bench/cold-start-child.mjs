// Runs in a fresh `node` process: imports one bundled handler, serves one API Gateway event, and
// prints how long the import and the first request took. Plain JavaScript, so nothing but the
// bundle itself is loaded and timed.
import { pathToFileURL } from 'node:url'

const [bundle, eventJson] = process.argv.slice(2)
const context = { awsRequestId: 'bench', functionName: 'bench', getRemainingTimeInMillis: () => 30_000 }
const started = performance.now()
const { handler } = await import(pathToFileURL(bundle).href)
const imported = performance.now()
const result = await handler(JSON.parse(eventJson), context)
const answered = performance.now()
process.stdout.write(JSON.stringify({ importMs: imported - started, firstRequestMs: answered - imported, statusCode: result.statusCode }))
// The SDK keeps its sockets open; a Lambda sandbox would be frozen here.
process.exit(0)
